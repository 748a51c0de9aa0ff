// Icons are inline SVG (packages/ui/src/components/icons.tsx), never emoji or symbol characters: a kiosk or a Linux
// machine without an emoji font drew 🎁, ⛶, ▶, ⚠ as empty boxes. This fails when one comes back anywhere
// a front end draws from: its code outside comments, its style sheets and pages, and the catalogues' texts, where
// only the text marks every font has (© ® ™) are allowed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the front ends' drawn characters come from. */
const frontEndDirs = [
  'shell/src',
  'shell/index.html',
  'mf-files/src',
  'mf-files/index.html',
  'mf-marketplace/src',
  'mf-marketplace/index.html',
  'mf-player/src',
  'mf-player/index.html',
  'packages/ui/src',
  'packages/i18n/src',
];

/**
 * Pictographs (emoji and the symbols a browser may draw with an emoji font), arrows, technical and geometric
 * symbols, dingbats, the emoji variation selector and keycap: what an icon drawn with a character is made of.
 */
const iconCharacter =
  /[\p{Extended_Pictographic}\u{2190}-\u{21FF}\u{2300}-\u{23FF}\u{2460}-\u{24FF}\u{25A0}-\u{27BF}\u{2900}-\u{297F}\u{2B00}-\u{2BFF}]|\u{FE0F}|\u{20E3}/gu;
/** Text marks of Latin-1 and general punctuation, in every text font. */
const textMarks = new Set(['©', '®', '™']);

/**
 * Left to the engineers at work in those files when this check came (the dashboard's and the points page's): each
 * entry is the character still there; remove the entry when it is replaced by an icon of packages/ui.
 */
const leftToTheirOwners: Record<string, string[]> = {
  'shell/src/features/dashboard/components/dashboard-page.tsx': ['▶'],
  'shell/src/features/points/model/history-icon.ts': ['↗', '↘'],
};

interface Finding {
  file: string;
  line: number;
  character: string;
}

function iconCharactersIn(text: string, file: string, offset: (index: number) => number): Finding[] {
  const found: Finding[] = [];
  for (const m of text.matchAll(iconCharacter)) {
    if (textMarks.has(m[0])) continue;
    found.push({ file, line: offset(m.index ?? 0), character: m[0] });
  }
  return found;
}

const lineOf = (source: string) => (index: number) => source.slice(0, index).split('\n').length;

/** The source with its comments blanked (same length, so lines and offsets stay), by TypeScript's own parser. */
function withoutComments(source: string, file: string): string {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
  const ranges: ts.CommentRange[] = [];
  const visit = (node: ts.Node) => {
    // JSX text has no trivia: a '//' in it is text
    if (node.kind !== ts.SyntaxKind.JsxText) {
      ranges.push(...(ts.getLeadingCommentRanges(source, node.pos) ?? []));
      ranges.push(...(ts.getTrailingCommentRanges(source, node.end) ?? []));
    }
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  let out = source;
  for (const r of ranges) out = out.slice(0, r.pos) + out.slice(r.pos, r.end).replace(/[^\n]/g, ' ') + out.slice(r.end);
  return out;
}

function jsonStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) jsonStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) jsonStrings(v, out);
  return out;
}

/** The icon characters a front-end file would draw: code (not comments), styles, pages, catalogue texts. */
function iconCharactersOf(file: string, source: string): Finding[] {
  const ext = extname(file);
  if (ext === '.ts' || ext === '.tsx' || ext === '.mts' || ext === '.js' || ext === '.mjs')
    return iconCharactersIn(withoutComments(source, file), file, lineOf(source));
  if (ext === '.css') {
    const blanked = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
    return iconCharactersIn(blanked, file, lineOf(source));
  }
  if (ext === '.html') {
    const blanked = source.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' '));
    return iconCharactersIn(blanked, file, lineOf(source));
  }
  if (ext === '.json') {
    // a catalogue: its texts (keys are ours, never drawn)
    return jsonStrings(JSON.parse(source)).flatMap((text) => iconCharactersIn(text, file, () => 0));
  }
  return [];
}

function filesUnder(path: string): string[] {
  const full = join(root, path);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(full);
  } catch {
    return [];
  }
  if (stat.isFile()) return [path];
  return readdirSync(full).flatMap((name) =>
    name === 'node_modules' || name === 'dist' ? [] : filesUnder(relative(root, join(full, name))),
  );
}

describe('icons are SVG, never emoji or symbol characters', () => {
  it('no front-end source, style sheet, page or catalogue text draws one', () => {
    const files = frontEndDirs.flatMap(filesUnder).filter((f) => !/\.test\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(150);
    const findings = files.flatMap((file) => iconCharactersOf(file, readFileSync(join(root, file), 'utf8')));
    const unexpected = findings.filter((f) => !leftToTheirOwners[f.file]?.includes(f.character));
    expect(unexpected.map((f) => `${f.file}:${f.line}: ${f.character}`)).toEqual([]);
    // an entry whose character has gone is stale: remove it
    for (const [file, characters] of Object.entries(leftToTheirOwners)) {
      const still = findings.filter((f) => f.file === file).map((f) => f.character);
      expect(
        characters.filter((c) => !still.includes(c)),
        `${file}: replaced, remove its entry`,
      ).toEqual([]);
    }
  });

  it('finds them in code, JSX text, styles and catalogue texts, not in comments, and lets © be', () => {
    const tsx = [
      '// a comment may say a → b',
      "const features = [{ key: 'fullscreen', icon: '⛶' }];",
      '/** and so may ✓ a doc comment */',
      'export const Gift = () => <span aria-hidden="true">🎁 </span>; // trailing ↗ comment',
      'export const Ok = () => <p>{/* ⚠ in a JSX comment */}http://example.test</p>;',
    ].join('\n');
    expect(iconCharactersOf('app/src/page.tsx', tsx)).toEqual([
      { file: 'app/src/page.tsx', line: 2, character: '⛶' },
      { file: 'app/src/page.tsx', line: 4, character: '🎁' },
    ]);
    expect(iconCharactersOf('app/src/a.css', '/* ✓ */\n.li::before { content: "✓"; }').map((f) => f.line)).toEqual([2]);
    expect(
      iconCharactersOf('locales/en/x.json', JSON.stringify({ footer: '© Pagecast', play: '▶ Play', ok: 'Done ✔️' })).map(
        (f) => f.character,
      ),
    ).toEqual(['▶', '✔', '\u{FE0F}']);
  });
});

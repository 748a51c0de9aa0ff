// A fresh machine has only what the project's scripts install: every command that code, a test, a benchmark or a
// script spawns must be named in scripts/lib/tools.mjs `commands`, and its source (a Debian list, a Go or PyPI tool)
// must be installed by the entry point that runs that file. This is what let `npm test` pass only on machines that
// happened to have poppler-utils.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commands, debian, goTools, installedBy, pythonTools } from '../scripts/lib/tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const skipDirs = new Set(['node_modules', 'dist', '.data', '.git', 'coverage']);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (skipDirs.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(c|m)?[jt]sx?$/.test(name)) out.push(path);
  }
  return out;
}

// Calls whose first argument is the command: node's child_process API, execa, and the scripts' and benchmarks'
// own `run(cmd, args)` wrappers; plus a browser's executablePath default.
const spawnCall =
  /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|exec|execa|run|runGroup)\(\s*(['"`])([^'"`$]+)\1\s*,\s*\[/g;
const executablePath = /executablePath:[^\n]*?(['"`])(\/[^'"`]+)\1/g;

interface Use {
  file: string;
  command: string;
}

function spawnedCommands(): Use[] {
  const uses: Use[] = [];
  for (const path of sources(root)) {
    if (path === fileURLToPath(import.meta.url)) continue;
    const text = readFileSync(path, 'utf8');
    const file = relative(root, path);
    for (const m of text.matchAll(spawnCall))
      uses.push({ file, command: basename((m[2] as string).split(' ')[0] ?? '') });
    for (const m of text.matchAll(executablePath)) uses.push({ file, command: basename(m[2] as string) });
  }
  return uses;
}

/** Which entry points run a file: its tests run under npm test, benchmarks under npm run bench, sources under both. */
function entryPoints(file: string): (keyof typeof installedBy)[] {
  if (/(^|\/)bench\//.test(file) || file === 'scripts/bench.mjs') return ['bench'];
  if (/(^|\/)(test|tests)\//.test(file) || /\.test\.[cm]?[jt]sx?$/.test(file) || file.startsWith('deploy/'))
    return ['test'];
  if (file.startsWith('scripts/')) return []; // the scripts install what they run themselves (tools.mjs)
  return ['start', 'test'];
}

function installedDebian(entry: keyof typeof installedBy): Set<string> {
  return new Set(installedBy[entry].flatMap((list) => (debian as Record<string, string[]>)[list] ?? []));
}

describe('every spawned command comes from an install list', () => {
  const uses = spawnedCommands();

  it('finds the commands it must check (the scan works)', () => {
    const names = new Set(uses.map((u) => u.command));
    for (const known of ['pdfinfo', 'pdftoppm', 'nginx', 'chromium', 'unshare']) expect(names).toContain(known);
  });

  it('names every spawned command in tools.mjs `commands`', () => {
    const unknown = uses.filter((u) => !Object.hasOwn(commands, u.command)).map((u) => `${u.file}: ${u.command}`);
    expect(unknown).toEqual([]);
  });

  it("installs each command's source in every entry point that runs it", () => {
    const missing: string[] = [];
    for (const { file, command } of uses) {
      const source = (commands as Record<string, { debian?: string; go?: string; python?: string }>)[command];
      if (!source) continue;
      for (const entry of entryPoints(file)) {
        if (source.debian && !installedDebian(entry).has(source.debian))
          missing.push(`${file} runs ${command} (Debian ${source.debian}), not installed by ${entry}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every source a command names exists in the install lists', () => {
    const allDebian = new Set(Object.values(debian).flat());
    for (const [name, source] of Object.entries(
      commands as Record<string, { debian?: string; go?: string; python?: string; npm?: string; base?: string }>,
    )) {
      if (source.debian) expect(allDebian, name).toContain(source.debian);
      if (source.go) expect(Object.keys(goTools), name).toContain(source.go);
      if (source.python) expect(Object.keys(pythonTools), name).toContain(source.python);
      if (source.npm)
        expect(
          () => readFileSync(join(root, 'node_modules', source.npm as string, 'package.json')),
          name,
        ).not.toThrow();
      expect(Object.keys(source).length, name).toBe(1);
    }
  });
});

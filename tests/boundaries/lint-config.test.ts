// biome.json is written by scripts/lint-config.mjs from one description of the boundaries. A hand edit, a service
// added without running the script again, or a file deeper than the rules reach would each leave a hole that no
// lint run reports; these tests report it instead.
import { execFileSync } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts/lint-config.mjs');

interface Override {
  includes: string[];
  linter?: {
    rules?: { style?: { noRestrictedImports?: { options: { patterns?: { group: string[] }[] } } } };
  };
}

const print = (from = root) =>
  execFileSync(process.execPath, [script, '--print', '--root', from], { cwd: root, encoding: 'utf8' });
const overridesOf = (text: string) => (JSON.parse(text) as { overrides: Override[] }).overrides;
const restricting = (overrides: Override[]) =>
  overrides.filter((o) => o.linter?.rules?.style?.noRestrictedImports !== undefined);
const groupsOf = (o: Override) =>
  (o.linter?.rules?.style?.noRestrictedImports?.options.patterns ?? []).flatMap((p) => p.group);

const committed = readFileSync(join(root, 'biome.json'), 'utf8');
const serviceOverrides = restricting(overridesOf(committed)).filter((o) =>
  o.includes.some((g) => g.startsWith('services/')),
);

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('biome.json, written by scripts/lint-config.mjs', () => {
  it('is exactly what the script writes (run `node scripts/lint-config.mjs` after changing it)', () => {
    expect(committed).toBe(print());
  });

  it('refuses every service folder and the gateway to every service file', () => {
    const names = readdirSync(join(root, 'services'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map(
        (d) =>
          (JSON.parse(readFileSync(join(root, 'services', d.name, 'package.json'), 'utf8')) as { name: string }).name,
      );
    expect(names).toContain('@pagecast/screens');
    expect(serviceOverrides.length).toBeGreaterThan(0);
    for (const o of serviceOverrides) {
      for (const name of [...names, '@pagecast/gateway'])
        expect(groupsOf(o)).toEqual(expect.arrayContaining([name, `${name}/**`]));
    }
  });

  it('takes the services from the folders: a service added later is refused without being named anywhere', () => {
    const tree = mkdtempSync(join(tmpdir(), 'pagecast-lint-config-'));
    temp.push(tree);
    for (const [dir, name] of [
      ['services/alpha', '@pagecast/alpha'],
      ['services/zeta', '@pagecast/zeta'],
      ['gateway', '@pagecast/gateway'],
    ] as const) {
      mkdirSync(join(tree, dir), { recursive: true });
      writeFileSync(join(tree, dir, 'package.json'), JSON.stringify({ name }));
    }
    const overrides = restricting(overridesOf(print(tree))).filter((o) =>
      o.includes.some((g) => g.startsWith('services/')),
    );
    expect(overrides.length).toBe(serviceOverrides.length);
    for (const o of overrides)
      expect(groupsOf(o)).toEqual(expect.arrayContaining(['@pagecast/zeta', '@pagecast/alpha']));
  });

  it('reaches every source file of the services and of the front-end features (none is deeper than the rules)', () => {
    const overrides = restricting(overridesOf(committed));
    const skip = /(^|\/)(node_modules|dist|\.data)(\/|$)/;
    const files = globSync(['services/*/**/*.{ts,tsx,js,mjs,cjs}', '*/src/features/**/*.{ts,tsx,js,mjs}'], {
      cwd: root,
      exclude: (name) => skip.test(String(name)),
    });
    expect(files.length).toBeGreaterThan(100);
    const unreached = files.filter((file) => {
      const covering = overrides.filter((o) => o.includes.some((g) => matchesGlob(file, g)));
      const kind = file.startsWith('services/') ? 'services/' : '/src/features/';
      return !covering.some((o) => o.includes.some((g) => g.includes(kind) && matchesGlob(file, g)));
    });
    expect(unreached).toEqual([]);
  });
});

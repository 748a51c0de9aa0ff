// Every test file runs: a workspace whose vitest.config.ts goes missing, a project the root config does not list, or
// a *.test.ts outside its project's `include` would drop out of `npm test` silently, with the total still green.
import { globSync, readFileSync } from 'node:fs';
import { basename, dirname, join, matchesGlob, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skip = /(^|\/)(node_modules|dist|\.data|\.git|coverage)(\/|$)/;
const glob = (patterns: string[]) =>
  patterns.flatMap((p) => globSync(p, { cwd: root, exclude: (name) => skip.test(String(name)) }));
const matches = (path: string, patterns: string[]) => patterns.some((p) => matchesGlob(path, p));

interface ProjectConfig {
  test?: { include?: string[]; exclude?: string[] };
  /** the other configs of the same folder (vitest.<name>.config.ts): projects the root config runs when named */
  also?: ProjectConfig[];
}

/** The projects the root config runs: one per vitest.config.ts its globs find. */
async function projectDirs(): Promise<string[]> {
  const rootConfig = (await import(join(root, 'vitest.config.ts'))) as { default: { test?: { projects?: string[] } } };
  return glob(rootConfig.default.test?.projects ?? []).map((p) => dirname(p));
}

/** The test files that no project runs: in no project folder, or outside the include (or inside the exclude). */
function orphansOf(files: string[], configs: Map<string, ProjectConfig>): string[] {
  const dirs = [...configs.keys()];
  const orphans: string[] = [];
  for (const file of files) {
    // the nearest project folder above the file
    const owner = dirs.filter((d) => file.startsWith(`${d}/`)).sort((a, b) => b.length - a.length)[0];
    const config = owner === undefined ? undefined : configs.get(owner);
    if (owner === undefined || !config) {
      orphans.push(`${file}: in no project (no vitest.config.ts above it that the root config lists)`);
      continue;
    }
    const rel = relative(join(root, owner), join(root, file));
    const runs = (c: ProjectConfig) =>
      matches(rel, c.test?.include ?? ['**/*.{test,spec}.?(c|m)[jt]s?(x)']) && !matches(rel, c.test?.exclude ?? []);
    if (![config, ...(config.also ?? [])].some(runs)) {
      orphans.push(`${file}: outside the include of ${owner}/vitest.config.ts`);
    }
  }
  return orphans;
}

describe('test files', () => {
  it('each belong to a project of the root config, inside its include', async () => {
    const dirs = await projectDirs();
    expect(dirs.length).toBeGreaterThan(15);
    const configs = new Map<string, ProjectConfig>();
    for (const dir of dirs) {
      const mod = (await import(join(root, dir, 'vitest.config.ts'))) as { default: ProjectConfig };
      // A named project beside it (tests/e2e/vitest.scale.config.ts) must be one the root config runs when named.
      const also: ProjectConfig[] = [];
      for (const named of glob([`${dir}/vitest.*.config.ts`])) {
        const project = basename(named).slice('vitest.'.length, -'.config.ts'.length);
        const listed = readFileSync(join(root, 'vitest.config.ts'), 'utf8').includes(`'${named}'`);
        expect(listed, `${named}: the root config runs it with --project ${project}`).toBe(true);
        also.push(((await import(join(root, named))) as { default: ProjectConfig }).default);
      }
      configs.set(dir, { ...mod.default, also });
    }
    const files = glob(['**/*.test.{ts,tsx,mts,js,mjs}']);
    expect(files.length).toBeGreaterThan(100);
    expect(orphansOf(files, configs)).toEqual([]);
  });

  it('names the orphans of a made-up layout', () => {
    const configs = new Map<string, ProjectConfig>([
      ['services/a', { test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } }],
      ['tests/b', { test: { include: ['*.test.ts'], exclude: ['slow.test.ts'] } }],
      ['tests/c', { test: { include: ['test/*.test.ts'] }, also: [{ test: { include: ['scale/*.test.ts'] } }] }],
    ]);
    const files = [
      'services/a/src/x.test.ts',
      'services/a/test/y.test.ts',
      'services/a/bench/z.test.ts',
      'services/c/test/w.test.ts',
      'tests/b/v.test.ts',
      'tests/b/slow.test.ts',
      'tests/c/scale/u.test.ts',
      'tests/c/other/t.test.ts',
    ];
    expect(orphansOf(files, configs)).toEqual([
      'services/a/bench/z.test.ts: outside the include of services/a/vitest.config.ts',
      'services/c/test/w.test.ts: in no project (no vitest.config.ts above it that the root config lists)',
      'tests/b/slow.test.ts: outside the include of tests/b/vitest.config.ts',
      'tests/c/other/t.test.ts: outside the include of tests/c/vitest.config.ts',
    ]);
  });
});

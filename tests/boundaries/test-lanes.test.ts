// npm test runs in lanes at once (scripts/test.mjs), the browser tests in shards: a project or a browser test file
// left out of every lane would drop out of the run with the total still green, and one in two lanes would run twice.
import { globSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// @ts-expect-error: plain JavaScript module without types
const { e2eShards, testLanes } = (await import('../../scripts/lib/shards.mjs')) as {
  e2eShards(n: number, durations?: Record<string, number>): Array<{ ms: number; files: string[] }>;
  testLanes(n: number): Array<{ name: string; args: string[]; env: Record<string, string> }>;
};
const browserTests = readdirSync(`${root}/tests/e2e/test`)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `tests/e2e/test/${f}`)
  .sort();

describe('the browser tests in shards', () => {
  it.each([1, 2, 3])('in %i shards, every file once', (n) => {
    const shards = e2eShards(n);
    expect(shards).toHaveLength(n);
    expect(shards.flatMap((s) => s.files).sort()).toEqual(browserTests);
  });

  it('balances by duration: the two longest go to different shards, a file never timed counts as the median', () => {
    const name = (f: string | undefined) => (f as string).slice('tests/e2e/test/'.length);
    const [a, b, c, d] = browserTests;
    // the first and the third in name order are the longest: dealt in name order, they would share a shard
    const durations = Object.fromEntries(browserTests.map((f) => [name(f), 10_000]));
    durations[name(a)] = 500_000;
    durations[name(c)] = 500_000;
    delete durations[name(d)];
    const [one, two] = e2eShards(2, durations);
    const inOne = (f: string | undefined) => one?.files.includes(f as string);
    expect(inOne(a)).not.toBe(inOne(c));
    expect(Math.abs((one?.ms ?? 0) - (two?.ms ?? 0))).toBeLessThanOrEqual(10_000);
    expect(one?.files.includes(b as string) || two?.files.includes(b as string)).toBe(true);
  });
});

/** The projects a plain `npm test` runs: one per vitest.config.ts the root config's globs find, by its name. */
async function projectNames(): Promise<string[]> {
  const rootConfig = (await import(`${root}/vitest.config.ts`)) as { default: { test?: { projects?: string[] } } };
  const configs = (rootConfig.default.test?.projects ?? []).flatMap((p) =>
    globSync(p, { cwd: root, exclude: (n) => String(n).includes('node_modules') }),
  );
  const names: string[] = [];
  for (const config of configs) {
    const mod = (await import(`${root}/${config}`)) as { default: { test?: { name?: string } } };
    names.push(mod.default.test?.name ?? dirname(config));
  }
  return names.sort();
}

describe('the lanes', () => {
  it('run every project of a plain npm test in exactly one lane, the browser tests in shards', async () => {
    const names = await projectNames();
    expect(names.length).toBeGreaterThan(15);
    const lanes = testLanes(2);
    const runs = (lane: { args: string[] }, project: string) => {
      const positive: string[] = [];
      const negative: string[] = [];
      lane.args.forEach((a, i) => {
        if (lane.args[i - 1] !== '--project') return;
        (a.startsWith('!') ? negative : positive).push(a.replace(/^!/, ''));
      });
      return (positive.length === 0 || positive.includes(project)) && !negative.includes(project);
    };
    for (const project of names) {
      const holding = lanes.filter((l) => runs(l, project)).map((l) => l.name);
      if (project === 'e2e') expect(holding).toEqual(['e2e-1', 'e2e-2']);
      else expect(holding, project).toHaveLength(1);
    }
    const ports = lanes.map((l) => l.env.E2E_PORT).filter(Boolean);
    expect(new Set(ports).size).toBe(2);
  });
});

// npm test runs the browser tests in shards at once (scripts/test.mjs): a file left out of every shard would drop out
// of the run with the total still green, and one in two shards would run twice on two stacks.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// @ts-expect-error: plain JavaScript module without types
const { e2eShards } = (await import('../../scripts/lib/shards.mjs')) as {
  e2eShards(n: number, durations?: Record<string, number>): Array<{ ms: number; files: string[] }>;
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

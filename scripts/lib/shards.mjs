// The lanes npm test runs at once (scripts/test.mjs): vitest processes, each over some projects, so that projects
// whose files must run one at a time (a service's component tests, the browser tests on one stack) still run beside
// each other: vitest itself runs every such project's files in one queue.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, root } from './infra.mjs';

export const e2eDir = join(root, 'tests/e2e/test');
/** Each file's duration in the last whole run on this machine (kept by scripts/test.mjs). */
export const localDurations = () => join(dataDir('test'), 'e2e-durations.json');

/**
 * The browser test files split in `n` shards of about equal time: longest first, each to the shard with the least
 * so far, by the last whole run's durations (a file never timed counts as the median).
 */
export function e2eShards(n, durations = undefined) {
  const files = readdirSync(e2eDir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  const readJson = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : {});
  const known = durations ?? { ...readJson(join(root, 'tests/e2e/durations.json')), ...readJson(localDurations()) };
  const times = files
    .map((f) => known[f])
    .filter((t) => typeof t === 'number')
    .sort((a, b) => a - b);
  const median = times.length ? times[Math.floor(times.length / 2)] : 60_000;
  const shards = Array.from({ length: n }, () => ({ ms: 0, files: [] }));
  for (const f of [...files].sort((a, b) => (known[b] ?? median) - (known[a] ?? median))) {
    const least = shards.reduce((a, b) => (b.ms < a.ms ? b : a));
    least.ms += known[f] ?? median;
    least.files.push(`tests/e2e/test/${f}`);
  }
  return shards;
}

/**
 * Projects with a lane of their own: the longest ones whose files run one at a time (measured in a whole run: the
 * fuzzing; billing's crash and property runs with file-conversion's conversions of the corpus, 12 min). Every other
 * project but the browser tests goes in the lane `rest`. (Marketplace with account in a lane of their own started
 * with the type-check and the stacks, the machine's busiest minutes, and marketplace's crash test then failed once:
 * kept in `rest` until that test's sensitivity to load is understood.)
 */
export const ownLanes = [['fuzz'], ['billing', 'file-conversion']];

/**
 * The whole run's lanes: `rest`, one per entry of `ownLanes`, and the browser tests in `e2eShardCount` shards (each
 * with a stack of its own on port 18080 + i). Each lane: its name, its vitest arguments and environment.
 */
export function testLanes(e2eShardCount = 2, durations = undefined) {
  const shards = e2eShards(e2eShardCount, durations);
  const alone = ownLanes.flat();
  return [
    { name: 'rest', args: ['e2e', ...alone].flatMap((p) => ['--project', `!${p}`]), env: {} },
    ...ownLanes.map((projects) => ({
      name: projects.join('+'),
      args: projects.flatMap((p) => ['--project', p]),
      env: {},
    })),
    ...shards.map((shard, i) => ({
      name: `e2e-${i + 1}`,
      args: ['--project', 'e2e', ...shard.files],
      env: { E2E_PORT: String(18080 + i) },
      ms: shard.ms,
      files: shard.files,
    })),
  ];
}

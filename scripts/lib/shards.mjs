// The browser test files split in shards that npm test runs at once, each on a stack of its own (scripts/test.mjs).
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

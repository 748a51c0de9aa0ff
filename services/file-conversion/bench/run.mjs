// Runs the conversion benchmark alone: node services/file-conversion/bench/run.mjs [pdf|docx|pptx ...]
// BENCH_POOL_SIZE=N compares render pool sizes (default: the engine's own).
import { benchConversion } from './conversion.bench.mjs';

const kinds = process.argv.slice(2);
const poolSize = process.env.BENCH_POOL_SIZE ? Number(process.env.BENCH_POOL_SIZE) : undefined;
const rows = await benchConversion({
  log: (line) => console.log(line),
  ...(kinds.length ? { kinds } : {}),
  poolSize,
});
console.log(JSON.stringify(rows, null, 2));

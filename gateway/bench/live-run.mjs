// Runs the live-updates benchmark alone: node gateway/bench/live-run.mjs (needs `node scripts/infra.mjs up --profile test`)
import { benchLive } from './live.bench.mjs';

const rows = await benchLive({ log: (line) => console.log(line) });
console.log(JSON.stringify(rows, null, 2));

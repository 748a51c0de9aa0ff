// Runs the conversion benchmark alone: node services/file-conversion/bench/run.mjs
import { benchConversion } from './conversion.bench.mjs';

const rows = await benchConversion({ log: (line) => console.log(line) });
console.log(JSON.stringify(rows, null, 2));

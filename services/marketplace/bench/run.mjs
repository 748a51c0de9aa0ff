// Runs the marketplace benchmark alone: node --import tsx services/marketplace/bench/run.mjs
import { benchMarketplace } from './marketplace.bench.mjs';

const rows = await benchMarketplace({ log: (line) => console.log(line) });
console.table(rows);

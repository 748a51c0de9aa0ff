// Runs the login benchmark alone: node services/account/bench/run.mjs
import { benchLogin } from './login.bench.mjs';

const rows = await benchLogin({ log: (line) => console.log(line) });
console.log(JSON.stringify(rows, null, 2));

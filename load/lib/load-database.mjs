// The database of `npm run load -- screens`: a FerretDB of the load's own, started here on a free port and
// stopped after the run, so the figures come from a database whose history is known (not the test profile's, which
// every test run fills) and so that the two cases can both be measured:
// - kept (the default): .data/test/load-ferretdb, kept from one run to the next: every earlier run's member, its
//   screens (paired, now offline), plays, ledgers and so on stay, as on a service that has run for a while;
// - FRESH_DB=1: .data/test/load-ferretdb-fresh, emptied before the run: the run starts on a new, empty database
//   (the kept one is left as it is).
// MONGO_URL given: that database is used as it is (kept; FRESH_DB=1 is refused: this script empties only its own).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { dataDir, ferretdbGogc, ferretdbProcs } from '../../scripts/lib/infra.mjs';
import { freePort } from '../../scripts/lib/net.mjs';
import { ensureGoTool } from '../../scripts/lib/tools.mjs';

const RUNS_FILE = 'load-runs.json';

const reachable = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

function bytesUnder(dir) {
  let total = 0;
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const st = statSync(join(dir, name));
    total += st.isDirectory() ? bytesUnder(join(dir, name)) : st.size;
  }
  return total;
}

/**
 * Starts the load's FerretDB (or takes MONGO_URL) and sets process.env.MONGO_URL for the stack. Resolves with
 * `{ mode: 'fresh'|'kept'|'given', url, earlierRuns, mib, text, stop() }`; earlierRuns and mib describe the database
 * before this run (for 'given': unknown).
 */
export async function loadDatabase({ fresh = process.env.FRESH_DB === '1', say = () => {} } = {}) {
  if (process.env.MONGO_URL) {
    if (fresh) throw new Error('FRESH_DB=1 with MONGO_URL: the load empties only its own database; unset one of them');
    return {
      mode: 'given',
      url: process.env.MONGO_URL,
      earlierRuns: null,
      mib: null,
      text: `given by MONGO_URL (${process.env.MONGO_URL}), as it was`,
      stop: async () => {},
    };
  }
  const dir = join(dataDir('test'), fresh ? 'load-ferretdb-fresh' : 'load-ferretdb');
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const runsFile = join(dir, RUNS_FILE);
  const earlierRuns = existsSync(runsFile) ? JSON.parse(readFileSync(runsFile, 'utf8')).runs : 0;
  const mib = bytesUnder(dir) / 2 ** 20;
  const bin = await ensureGoTool('ferretdb');
  const port = await freePort();
  const log = openSync(join(dir, 'ferretdb.log'), 'a');
  const child = spawn(
    bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--log-level=warn',
      `--state-dir=${dir}`,
      '--debug-addr=-',
    ],
    {
      env: { ...process.env, GOMAXPROCS: ferretdbProcs(), GOGC: ferretdbGogc() },
      stdio: ['ignore', log, log],
      detached: true,
    },
  );
  let exited = null;
  child.on('exit', (code) => (exited = code ?? 'signal'));
  const deadline = Date.now() + 30_000;
  while (!(await reachable(port))) {
    if (exited !== null) throw new Error(`the load's FerretDB exited (${exited}); see ${join(dir, 'ferretdb.log')}`);
    if (Date.now() > deadline) throw new Error(`the load's FerretDB did not listen within 30 s (${dir})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  writeFileSync(runsFile, JSON.stringify({ runs: earlierRuns + 1 }));
  const url = `mongodb://127.0.0.1:${port}`;
  process.env.MONGO_URL = url;
  const text = fresh
    ? `fresh (FRESH_DB=1: a new, empty FerretDB in ${dir})`
    : earlierRuns === 0
      ? `kept, but empty: the first run on ${dir} (later runs without FRESH_DB keep what this one leaves)`
      : `kept from ${earlierRuns} earlier run(s) (${dir}, ${mib.toFixed(0)} MiB on disk before this run)`;
  say(`database: ${text}; FerretDB on ${url}`);
  return {
    mode: fresh ? 'fresh' : 'kept',
    url,
    earlierRuns,
    mib,
    text,
    async stop() {
      if (exited !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

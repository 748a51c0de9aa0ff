// The database of `npm run load -- screens`: a FerretDB of the load's own, started here on a free port and
// stopped after the run, so the figures come from a database whose history is known (not the test profile's, which
// every test run fills) and so that the issue's two cases can both be measured:
// - kept (the default): .data/test/load-ferretdb, kept from one run to the next: every earlier run's member, its
//   screens (paired, now offline), plays, ledgers and so on stay, as on a service that has run for a while;
// - FRESH_DB=1: .data/test/load-ferretdb-fresh, emptied before the run: the run starts on a new, empty database
//   (the kept one is left as it is).
// MONGO_URL given: that database is used as it is (kept; FRESH_DB=1 is refused: this script empties only its own).
// Beside it, the load's own MinIO (its objects kept or fresh with the database that names them) and maildev, so that
// every server the displays' traffic reaches is the run's own: pinned to the stack's core with the rest (taskset)
// and counted in the stack's CPU, never the shared test-profile servers other runs use at the same time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { dataDir, ferretdbGogc, ferretdbProcs, localSecrets, root } from '../../scripts/lib/infra.mjs';
import { freePort } from '../../scripts/lib/net.mjs';
import { ensureGoTool } from '../../scripts/lib/tools.mjs';
import { onCores } from './stack-cpu.mjs';

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
export async function loadDatabase({ fresh = process.env.FRESH_DB === '1', say = () => {}, cpus = null } = {}) {
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
  // LOAD_CPU_PROF: its debug listener (Go's pprof), so the run can take a CPU profile of it (docs/scale.md)
  const debugPort = process.env.LOAD_CPU_PROF ? await freePort() : null;
  const log = openSync(join(dir, 'ferretdb.log'), 'a');
  const child = spawn(
    ...onCores(cpus, bin, [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--log-level=warn',
      `--state-dir=${dir}`,
      `--debug-addr=${debugPort ? `127.0.0.1:${debugPort}` : '-'}`,
    ]),
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
    pid: child.pid,
    debugUrl: debugPort ? `http://127.0.0.1:${debugPort}` : null,
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

/** Spawns a server detached (its own process group) with its output in `logFile`; resolves once `ready()`. */
async function startServer({ name, command, args, env = {}, logFile, ready, cpus }) {
  const out = openSync(logFile, 'a');
  const child = spawn(...onCores(cpus, command, args), {
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
    detached: true,
  });
  let exited = null;
  child.on('exit', (code) => (exited = code ?? 'signal'));
  const deadline = Date.now() + 60_000;
  while (!(await ready().catch(() => false))) {
    if (exited !== null) throw new Error(`the load's ${name} exited (${exited}); see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`the load's ${name} was not ready within 60 s (${logFile})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: child.pid,
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

/**
 * The load's own MinIO (objects in .data/test/load-minio, or load-minio-fresh emptied with FRESH_DB=1: the files
 * a kept database names stay readable) and maildev, on free ports; sets S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY,
 * SMTP_URL and MAILDEV_API_URL so the stack uses them (scripts/lib/infra.mjs starts nothing it is given). Resolves
 * with their pids by name and stop().
 */
export async function loadSideServers({ fresh = process.env.FRESH_DB === '1', say = () => {}, cpus = null } = {}) {
  const d = dataDir('test');
  const secrets = localSecrets('test');
  const minioDir = join(d, fresh ? 'load-minio-fresh' : 'load-minio');
  if (fresh) rmSync(minioDir, { recursive: true, force: true });
  mkdirSync(minioDir, { recursive: true });
  mkdirSync(join(d, 'logs'), { recursive: true });
  const [s3, s3console, smtp, mailweb] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const started = {};
  try {
    started.minio = await startServer({
      name: 'MinIO',
      command: await ensureGoTool('minio'),
      args: ['server', minioDir, '--address', `127.0.0.1:${s3}`, '--console-address', `127.0.0.1:${s3console}`],
      env: { MINIO_ROOT_USER: secrets.S3_ACCESS_KEY, MINIO_ROOT_PASSWORD: secrets.S3_SECRET_KEY, MINIO_BROWSER: 'off' },
      logFile: join(d, 'logs', 'load-minio.log'),
      ready: async () => (await fetch(`http://127.0.0.1:${s3}/minio/health/ready`)).ok,
      cpus,
    });
    started.maildev = await startServer({
      name: 'maildev',
      command: process.execPath,
      args: [
        join(root, 'node_modules/maildev/bin/maildev'),
        ...['--smtp', String(smtp), '--web', String(mailweb), '--ip', '127.0.0.1', '--silent'],
      ],
      logFile: join(d, 'logs', 'load-maildev.log'),
      ready: async () => (await reachable(smtp)) && (await reachable(mailweb)),
      cpus,
    });
  } catch (e) {
    await Promise.all(Object.values(started).map((s) => s.stop()));
    throw e;
  }
  Object.assign(process.env, {
    S3_ENDPOINT: `http://127.0.0.1:${s3}`,
    S3_ACCESS_KEY: secrets.S3_ACCESS_KEY,
    S3_SECRET_KEY: secrets.S3_SECRET_KEY,
    SMTP_URL: `smtp://127.0.0.1:${smtp}`,
    MAILDEV_API_URL: `http://127.0.0.1:${mailweb}`,
  });
  say(`the load's own MinIO on ${s3} (${minioDir}) and maildev on ${smtp}/${mailweb}`);
  return {
    pids: Object.fromEntries(Object.entries(started).map(([k, v]) => [k, v.pid])),
    stop: () => Promise.all(Object.values(started).map((s) => s.stop())),
  };
}

// Starts and stops the local infrastructure: NATS (JetStream), FerretDB (MongoDB protocol, SQLite backend),
// MinIO (S3), maildev (SMTP + mail API) and, on request, localstripe (the card provider's stand-in). A server whose URL is already in the
// environment is not started: that is how compose and real deployments run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nginxConfig } from './nginx.mjs';
import { debian, ensureDebianPackages, ensureGoTool, ensurePythonTool, pythonToolPath, toolPath } from './tools.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The folder of real documents the tests and benchmarks upload (PDF, PPTX, DOCX): PAGECAST_CORPUS when set, else
 * shared/corpus beside the checkout (where a clone and CI find it), else /work/shared/corpus. The scripts pass it to
 * every test and benchmark as PAGECAST_CORPUS; a test run by hand falls back to the last.
 */
export function corpusDir(env = process.env) {
  if (env.PAGECAST_CORPUS) return env.PAGECAST_CORPUS;
  const beside = resolve(root, '..', 'shared', 'corpus');
  return existsSync(beside) ? beside : '/work/shared/corpus';
}

export const profiles = {
  dev: { nats: 4222, mongo: 27017, s3: 9000, s3console: 9001, smtp: 1025, mailweb: 1080, stripe: 12111 },
  test: { nats: 14222, mongo: 27117, s3: 19000, s3console: 19001, smtp: 11025, mailweb: 11080, stripe: 12211 },
};

const log = (msg) => process.stdout.write(`[infra] ${msg}\n`);

/**
 * Clustered engines (PAGECAST_CLUSTER=1, `npm start -- --cluster`): NATS as a three-node JetStream cluster (streams
 * and buckets kept in three copies, NATS_REPLICAS=3) and MinIO as four nodes of one erasure-coded set, behind an nginx
 * that passes each request to a live node, all on loopback ports next to the profile's single servers (which stay the
 * default). FerretDB has no replication: it stays single (docs/platform.md, "MongoDB in production").
 */
export const clustered = (env = process.env) => env.PAGECAST_CLUSTER === '1';

export function clusterPorts(profile) {
  const p = profiles[profile];
  return {
    nats: [0, 1, 2].map((i) => ({ client: p.nats + 11 + i, route: p.nats + 21 + i, monitor: p.nats + 31 + i })),
    minio: [0, 1, 2, 3].map((i) => ({ api: p.s3 + 11 + i, console: p.s3 + 21 + i })),
    s3: p.s3 + 30,
  };
}

/** The names `up` starts for 'nats' and 's3' when clustered. */
const clusterMembers = {
  nats: ['nats-1', 'nats-2', 'nats-3'],
  s3: ['minio-1', 'minio-2', 'minio-3', 'minio-4', 's3-proxy'],
};

export function dataDir(profile) {
  return join(root, '.data', profile);
}

/** Local secrets: generated once per checkout and profile, never committed (.data is git-ignored). */
export function localSecrets(profile) {
  const file = join(dataDir(profile), 'secrets.env');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const s = {
      S3_ACCESS_KEY: `pagecast-${randomBytes(6).toString('hex')}`,
      S3_SECRET_KEY: randomBytes(24).toString('base64url'),
      INTERNAL_SECRET: randomBytes(32).toString('base64url'),
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
    };
    writeFileSync(
      file,
      `${Object.entries(s)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
      { mode: 0o600 },
    );
  }
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/**
 * Whether an S3 server already on a port takes this checkout's credentials. A server left by another checkout (or
 * another worktree) has its own generated keys: reusing it "as is" made every upload fail later with an access error
 * far from the cause. Returns null when the keys work, else what to do.
 */
export async function checkS3Credentials({ endpoint, accessKey, secretKey }) {
  const { Client } = createRequire(join(root, 'packages/service-kit/package.json'))('minio');
  const url = new URL(endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: url.protocol === 'https:',
    accessKey,
    secretKey,
  });
  try {
    await client.listBuckets();
    return null;
  } catch (err) {
    return (
      `the S3 server at ${endpoint} refuses this checkout's keys (${err.code ?? err.message}): it was started by ` +
      'another checkout. Stop it there (npm run infra -- down --profile <profile>), or give its S3_ENDPOINT, ' +
      'S3_ACCESS_KEY and S3_SECRET_KEY in the environment.'
    );
  }
}

/** The environment every process of a profile gets: URLs of the servers (from env when set) and local secrets. */
export function infraEnv(profile, env = process.env) {
  const p = profiles[profile];
  const secrets = localSecrets(profile);
  const c = clustered(env) ? clusterPorts(profile) : null;
  return {
    MONGO_URL: env.MONGO_URL || `mongodb://127.0.0.1:${p.mongo}`,
    NATS_URL:
      env.NATS_URL || (c ? c.nats.map((n) => `nats://127.0.0.1:${n.client}`).join(',') : `nats://127.0.0.1:${p.nats}`),
    ...(c && !env.NATS_URL ? { NATS_REPLICAS: '3' } : {}),
    S3_ENDPOINT: env.S3_ENDPOINT || `http://127.0.0.1:${c ? c.s3 : p.s3}`,
    S3_ACCESS_KEY: env.S3_ACCESS_KEY || secrets.S3_ACCESS_KEY,
    S3_SECRET_KEY: env.S3_SECRET_KEY || secrets.S3_SECRET_KEY,
    S3_BUCKET: env.S3_BUCKET || 'pagecast',
    SMTP_URL: env.SMTP_URL || `smtp://127.0.0.1:${p.smtp}`,
    MAILDEV_API_URL: env.MAILDEV_API_URL || `http://127.0.0.1:${p.mailweb}`,
    ...stripeEnv(p, secrets, env),
    INTERNAL_SECRET: env.INTERNAL_SECRET || secrets.INTERNAL_SECRET,
  };
}

/**
 * The card provider: the real one when STRIPE_API_BASE or STRIPE_SECRET_KEY is given (production keys come from the
 * environment, never from here); otherwise localstripe on the profile's port, which takes any test key, serves its
 * fake Stripe.js and signs webhooks with this checkout's local secret (a secrets.env from before it existed gets one).
 */
function stripeEnv(p, secrets, env) {
  if (env.STRIPE_API_BASE || env.STRIPE_SECRET_KEY) {
    const keys = [
      'STRIPE_API_BASE',
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_JS_URL',
    ];
    return Object.fromEntries(keys.filter((k) => env[k]).map((k) => [k, env[k]]));
  }
  const base = `http://127.0.0.1:${p.stripe}`;
  return {
    STRIPE_API_BASE: base,
    STRIPE_SECRET_KEY: 'sk_test_localstripe',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_localstripe',
    STRIPE_WEBHOOK_SECRET: secrets.STRIPE_WEBHOOK_SECRET || 'whsec_localstripe_development_only',
    STRIPE_JS_URL: `${base}/js.stripe.com/v3/`,
    STRIPE_LOCAL: '1',
  };
}

function portOpen(port, host = '127.0.0.1') {
  return new Promise((res) => {
    const s = net.connect({ port, host });
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
    s.setTimeout(1000, () => {
      s.destroy();
      res(false);
    });
  });
}

async function waitFor(check, what, timeoutMs, logFile) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const tail = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
  throw new Error(
    `${what} did not become ready in ${timeoutMs / 1000} s.${tail ? `\nIts log (${logFile}):\n${tail}` : ''}`,
  );
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Go's scheduler threads for FerretDB: half the cores (at least one), or FERRETDB_GOMAXPROCS. With one per core, the
 * Go runtime's idle threads spin looking for work after each command; on this 2-core machine that took CPU from the
 * services beside it: FerretDB's CPU per login (a member read and a share of a session insert) went from 0.87-1.0 ms
 * to 0.54-0.79 ms with one (npm run bench -- login), and the database still gets a whole core.
 */
export function ferretdbProcs(env = process.env, cores = availableParallelism()) {
  const set = Number(env.FERRETDB_GOMAXPROCS);
  return String(Number.isInteger(set) && set > 0 ? set : Math.max(1, Math.floor(cores / 2)));
}

/**
 * FerretDB's garbage-collector target (Go's GOGC), or FERRETDB_GOGC: 400, so a collection runs when the heap has grown
 * to five times what survived the last one instead of twice. Its live heap is small (tens of MB here), and each command
 * allocates while it decodes and encodes documents: at 100 the collector was 15% of its CPU on a read by _id (go tool
 * pprof). With 50 logins in flight, runs taking turns (npm run bench -- login prints FerretDB's CPU per login): about a
 * tenth less, 0.90-0.92 ms at 100 against 0.72-0.78 ms at 400 in neighbouring runs; 1000 did no better. Its resident
 * size went from 41 to 53 MB.
 */
export function ferretdbGogc(env = process.env) {
  const set = env.FERRETDB_GOGC?.trim();
  return set === 'off' || (set && /^[1-9]\d*$/.test(set)) ? set : '400';
}

/** Server definitions: which env var means "already provided", what to build, how to run and when it is ready. */
function servers(profile) {
  const p = profiles[profile];
  const d = dataDir(profile);
  const secrets = localSecrets(profile);
  return {
    nats: {
      envVar: 'NATS_URL',
      port: p.nats,
      tool: 'nats-server',
      cmd: () => [toolPath('nats-server'), ['-a', '127.0.0.1', '-p', String(p.nats), '-js', '-sd', join(d, 'nats')]],
    },
    mongo: {
      envVar: 'MONGO_URL',
      port: p.mongo,
      tool: 'ferretdb',
      env: { GOMAXPROCS: ferretdbProcs(), GOGC: ferretdbGogc() },
      cmd: () => {
        mkdirSync(join(d, 'ferretdb'), { recursive: true });
        return [
          toolPath('ferretdb'),
          [
            '--handler=sqlite',
            `--sqlite-url=file:${join(d, 'ferretdb')}/`,
            `--listen-addr=127.0.0.1:${p.mongo}`,
            '--telemetry=disable',
            '--log-level=warn',
            `--state-dir=${join(d, 'ferretdb')}`,
            '--debug-addr=-',
          ],
        ];
      },
    },
    s3: {
      envVar: 'S3_ENDPOINT',
      port: p.s3,
      tool: 'minio',
      env: { MINIO_ROOT_USER: secrets.S3_ACCESS_KEY, MINIO_ROOT_PASSWORD: secrets.S3_SECRET_KEY, MINIO_BROWSER: 'off' },
      cmd: () => [
        toolPath('minio'),
        [
          'server',
          join(d, 'minio'),
          '--address',
          `127.0.0.1:${p.s3}`,
          '--console-address',
          `127.0.0.1:${p.s3console}`,
          '--quiet',
        ],
      ],
      ready: async () => {
        try {
          return (await fetch(`http://127.0.0.1:${p.s3}/minio/health/ready`)).ok;
        } catch {
          return false;
        }
      },
      reusable: () =>
        checkS3Credentials({
          endpoint: `http://127.0.0.1:${p.s3}`,
          accessKey: secrets.S3_ACCESS_KEY,
          secretKey: secrets.S3_SECRET_KEY,
        }),
    },
    ...clusterServers(profile, d, secrets),
    mail: {
      envVar: 'SMTP_URL',
      port: p.smtp,
      cmd: () => [
        process.execPath,
        [
          join(root, 'node_modules/maildev/bin/maildev'),
          '--smtp',
          String(p.smtp),
          '--web',
          String(p.mailweb),
          '--ip',
          '127.0.0.1',
          '--silent',
        ],
      ],
      ready: async () => (await portOpen(p.smtp)) && (await portOpen(p.mailweb)),
    },
    stripe: {
      envVar: 'STRIPE_API_BASE',
      port: p.stripe,
      python: 'localstripe',
      // --from-scratch: no state from a previous run (intents, webhooks) is reloaded.
      cmd: () => [pythonToolPath('localstripe'), ['--port', String(p.stripe), '--from-scratch']],
      ready: async () => {
        try {
          return (await fetch(`http://127.0.0.1:${p.stripe}/js.stripe.com/v3/`)).ok;
        } catch {
          return false;
        }
      },
    },
  };
}

const httpOk = async (url) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
};

/** The clustered servers' definitions (started only when clustered; listed always, so `down` stops them too). */
function clusterServers(profile, d, secrets) {
  const c = clusterPorts(profile);
  const defs = {};
  const routes = c.nats.map((n) => `nats://127.0.0.1:${n.route}`).join(',');
  c.nats.forEach((n, i) => {
    defs[`nats-${i + 1}`] = {
      envVar: 'NATS_URL',
      port: n.client,
      tool: 'nats-server',
      cmd: () => [
        toolPath('nats-server'),
        [
          ...['-a', '127.0.0.1', '-p', String(n.client), '-m', String(n.monitor), '-n', `pagecast-${i + 1}`],
          ...['-js', '-sd', join(d, 'cluster', `nats-${i + 1}`)],
          ...['--cluster_name', 'pagecast', '--cluster', `nats://127.0.0.1:${n.route}`, '--routes', routes],
        ],
      ],
      // Ready when this node's JetStream has a meta leader and is current (needs a quorum of the three).
      ready: () => httpOk(`http://127.0.0.1:${n.monitor}/healthz`),
    };
  });
  const drives = c.minio.map((m, i) => `http://127.0.0.1:${m.api}${join(d, 'cluster', `minio-${i + 1}`)}`);
  const minioEnv = {
    MINIO_ROOT_USER: secrets.S3_ACCESS_KEY,
    MINIO_ROOT_PASSWORD: secrets.S3_SECRET_KEY,
    MINIO_BROWSER: 'off',
    // The four drives are folders of this machine's root file system, which MinIO refuses in distributed mode unless told.
    MINIO_CI_CD: 'on',
  };
  c.minio.forEach((m, i) => {
    defs[`minio-${i + 1}`] = {
      envVar: 'S3_ENDPOINT',
      port: m.api,
      tool: 'minio',
      // MinIO waits forever for a loopback peer address inside a container (it looks for /.dockerenv) unless told
      // which endpoint is its own.
      env: { ...minioEnv, _MINIO_SERVER_LOCAL: `127.0.0.1:${m.api}` },
      cmd: () => {
        mkdirSync(join(d, 'cluster', `minio-${i + 1}`), { recursive: true });
        return [
          toolPath('minio'),
          [
            'server',
            ...['--address', `127.0.0.1:${m.api}`, '--console-address', `127.0.0.1:${m.console}`, '--quiet'],
            ...drives,
          ],
        ];
      },
      ready: () => httpOk(`http://127.0.0.1:${m.api}/minio/health/live`),
    };
  });
  const proxyDir = join(d, 'cluster', 's3-proxy');
  defs['s3-proxy'] = {
    envVar: 'S3_ENDPOINT',
    port: c.s3,
    cmd: () => {
      mkdirSync(join(proxyDir, 'tmp'), { recursive: true });
      chmodSync(proxyDir, 0o755); // workers run as an unprivileged user when the master is root
      // The replicas' generator (scripts/lib/nginx.mjs): bodies streamed both ways, the Host header kept (S3
      // signatures cover it), a node that refuses the connection skipped for the next.
      const pools = [{ name: 'minio', listen: c.s3, upstreams: c.minio.map((m) => m.api) }];
      writeFileSync(join(proxyDir, 'nginx.conf'), nginxConfig({ prefix: proxyDir, pools, workers: 1 }));
      return ['/usr/sbin/nginx', ['-p', proxyDir, '-c', join(proxyDir, 'nginx.conf'), '-g', 'daemon off;']];
    },
    // Ready when the set has its write quorum (three of the four nodes).
    ready: () => httpOk(`http://127.0.0.1:${c.s3}/minio/health/cluster`),
    reusable: () =>
      checkS3Credentials({
        endpoint: `http://127.0.0.1:${c.s3}`,
        accessKey: secrets.S3_ACCESS_KEY,
        secretKey: secrets.S3_SECRET_KEY,
      }),
  };
  return defs;
}

/**
 * Starts the named servers of a profile unless they are provided or already running; returns the env to use and a
 * stop() that ends only what this call started.
 */
export async function up({
  profile = 'dev',
  only = ['nats', 'mongo', 's3', 'mail'],
  env = process.env,
  detached = false,
} = {}) {
  const defs = servers(profile);
  const d = dataDir(profile);
  mkdirSync(join(d, 'logs'), { recursive: true });
  mkdirSync(join(d, 'pids'), { recursive: true });
  const started = [];
  const names = clustered(env) ? only.flatMap((name) => clusterMembers[name] ?? [name]) : only;
  if (names.includes('s3-proxy') && !env.S3_ENDPOINT) await ensureDebianPackages(debian.proxy);
  const wanted = names.filter((name) => {
    if (env[defs[name].envVar]) {
      log(`${name}: using ${env[defs[name].envVar]} from the environment`);
      return false;
    }
    return true;
  });
  // Build missing tools one at a time: parallel Go builds on two cores only slow each other down.
  for (const name of wanted) {
    if (defs[name].tool) await ensureGoTool(defs[name].tool);
    if (defs[name].python) await ensurePythonTool(defs[name].python);
  }
  await Promise.all(
    wanted.map(async (name) => {
      const def = defs[name];
      const ready = def.ready ?? (() => portOpen(def.port));
      const pidFile = join(d, 'pids', `${name}.pid`);
      if (await portOpen(def.port)) {
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
        if (!pid || !pidAlive(pid))
          log(`${name}: port ${def.port} is already in use by another process; using it as is`);
        else log(`${name}: already running (pid ${pid})`);
        await waitFor(ready, name, 30000);
        const problem = await def.reusable?.();
        if (problem) throw new Error(`${name}: ${problem}`);
        return;
      }
      const [cmd, args] = def.cmd();
      const logFile = join(d, 'logs', `${name}.log`);
      const out = openSync(logFile, 'a');
      const child = spawn(cmd, args, {
        cwd: root,
        env: { ...process.env, ...def.env },
        stdio: ['ignore', out, out],
        detached: true, // own process group: stop() ends the server and its children together
      });
      if (detached) child.unref();
      writeFileSync(pidFile, String(child.pid));
      let exited = null;
      child.on('exit', (code) => (exited = code ?? 'signal'));
      log(`${name}: starting on 127.0.0.1:${def.port} (log ${logFile})`);
      await waitFor(
        async () => {
          if (exited !== null)
            throw new Error(
              `${name} exited (${exited}) while starting; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
            );
          return ready();
        },
        name,
        60000,
        logFile,
      );
      log(`${name}: ready`);
      started.push({ name, pid: child.pid, pidFile });
    }),
  );
  return {
    env: infraEnv(profile, env),
    started: started.map((s) => s.name),
    async stop() {
      await Promise.all(started.map((s) => killGroup(s.pid, s.name).then(() => rmSync(s.pidFile, { force: true }))));
    },
  };
}

async function killGroup(pid, name) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 50; i++) {
    if (!pidAlive(pid)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
  log(`${name}: killed after 5 s`);
}

/**
 * Kills one running server of a profile at once (SIGKILL to its process group, as a lost machine would), by its pid
 * file, and resolves when it is gone; `up()` starts it again. For the fault tests (deploy/cluster.test.ts, the faults
 * project).
 */
export async function killServer(profile, name) {
  const pid = Number(readFileSync(join(dataDir(profile), 'pids', `${name}.pid`), 'utf8'));
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
  while (pidAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Stops every server of a profile recorded in its pid files (for `npm run infra down`). */
export async function down(profile = 'dev') {
  const d = join(dataDir(profile), 'pids');
  for (const name of Object.keys(servers(profile))) {
    const f = join(d, `${name}.pid`);
    if (!existsSync(f)) continue;
    const pid = Number(readFileSync(f, 'utf8'));
    if (pidAlive(pid)) {
      await killGroup(pid, name);
      log(`${name}: stopped`);
    }
    rmSync(f, { force: true });
  }
}

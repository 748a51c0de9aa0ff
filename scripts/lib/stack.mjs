// Starts the whole product on one machine: infrastructure, the five services and the gateway. Used by `npm start`
// (dev profile) and by the browser tests (test profile); stop() ends exactly what start started.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { buildFrontEnds } from './build.mjs';
import { compileServers } from './compile.mjs';
import { clustered, dataDir, profiles, root, up } from './infra.mjs';
import { freePort } from './net.mjs';
import { startNginx } from './nginx.mjs';
import { ownNodeArgs } from './node-args.mjs';
import { debianFor, ensureDebianPackages, ensureGoTool, toolPath } from './tools.mjs';

export const services = [
  { name: 'account', dir: 'services/account', urlVar: 'ACCOUNT_URL', devPort: 4101 },
  { name: 'file-conversion', dir: 'services/file-conversion', urlVar: 'FILES_URL', devPort: 4102 },
  { name: 'marketplace', dir: 'services/marketplace', urlVar: 'MARKETPLACE_URL', devPort: 4103 },
  { name: 'billing', dir: 'services/billing', urlVar: 'BILLING_URL', devPort: 4104 },
  { name: 'screens', dir: 'services/screens', urlVar: 'SCREENS_URL', devPort: 4105 },
];

async function waitReady(url, name, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} while starting (see its log above or in .data/)`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
      last = `${r.status} ${await r.text()}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready after ${timeoutMs / 1000} s (${url}: ${last})`);
}

/** Pipes a child's output line by line with a name prefix, to the terminal or to a log file. */
function pipeOutput(child, name, sink) {
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) sink.write(`[${name}] ${line}\n`);
    });
  }
}

/**
 * What keeps one stack's data apart from another's on the same servers (see `isolate`): a NATS server of its own,
 * started among the stack's children (so stop() ends it), and the names of its databases and bucket.
 */
async function isolatedServers(profile, port, children, say, cpus = null) {
  await ensureGoTool('nats-server');
  const natsPort = await freePort();
  const store = join(dataDir(profile), `nats-${port}`);
  rmSync(store, { recursive: true, force: true });
  mkdirSync(store, { recursive: true });
  const nats = spawn(
    ...onCores(cpus, toolPath('nats-server'), ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', store]),
    { stdio: 'ignore', detached: true },
  );
  nats.pagecastName = 'nats';
  children.push(nats);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (nats.exitCode !== null) throw new Error(`the stack's own nats-server exited with code ${nats.exitCode}`);
    const open = await new Promise((resolve) => {
      const sock = connect({ port: natsPort, host: '127.0.0.1' });
      sock.once('connect', () => resolve(sock.end() && true));
      sock.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`the stack's own nats-server did not listen on ${natsPort} in 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  say(`isolated: its own NATS on ${natsPort}, databases s${port}_pagecast_*, bucket pagecast-s${port}`);
  return {
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    MONGO_DB_PREFIX: `s${port}_`,
    S3_BUCKET: `pagecast-s${port}`,
  };
}

/** `command args` run on the cores `cpus` ('0', '0-1'; taskset, util-linux, execs it: same pid), or as it is. */
function onCores(cpus, command, args) {
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
}

/** The replica count asked for: the option, else PAGECAST_REPLICAS, else 1. */
export function replicaCount(given) {
  const n = Number(given ?? (process.env.PAGECAST_REPLICAS || 1));
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`replicas must be a whole number from 1 to 8, not ${given}`);
  return n;
}

/**
 * @param {{ profile?: 'dev'|'test', port?: number, build?: boolean, quiet?: boolean, env?: Record<string,string>,
 *   replicas?: number, nginx?: boolean, isolate?: boolean }} opts
 *   quiet: processes log to .data/<profile>/logs/<name>.log instead of the terminal.
 *   replicas: how many of each service and of the gateway (default PAGECAST_REPLICAS, else 1). With more than one,
 *   or with `nginx: true`, Debian's nginx listens on the public port and on each service's address and balances
 *   them round robin (scripts/lib/nginx.mjs); each replica has its own port. With 1 and no `nginx`, nothing changes:
 *   the gateway listens on the public port and each service on its own address.
 *   isolate (default: the test profile on single engines): the stack keeps its data apart from any other stack on
 *   the same servers, so several can run at once (the browser tests beside the fuzzing, two checkouts' test runs):
 *   its databases are named behind the prefix `s<port>_`, its S3 bucket is `pagecast-s<port>`, and it gets a NATS
 *   server of its own (JetStream, a fresh store in .data/<profile>/nats-<port>). Streams bind their subjects, and
 *   two streams cannot bind the same subjects on one server, so a prefix on stream names alone would not part them.
 *   cpus: the cores every process it starts runs on (taskset -c; the load pins the stack to one core and itself to
 *   another, docs/scale.md); null (default): wherever the kernel puts them. Servers it reuses are left as they are.
 * The services and the gateway run compiled (scripts/lib/compile.mjs: one bundle each, run by `node`), as in the
 * images; PAGECAST_RUN=tsx runs their TypeScript sources through tsx instead (no compile step, for development).
 */
export async function startStack({
  profile = 'dev',
  port = 8080,
  build = true,
  quiet = false,
  env: extraEnv = {},
  replicas: replicasAsked,
  nginx: nginxAsked = false,
  isolate = profile === 'test' && !clustered(),
  cpus = null,
} = {}) {
  const replicas = replicaCount(replicasAsked);
  const balanced = replicas > 1 || nginxAsked;
  const say = (m) => process.stdout.write(`[stack] ${m}\n`);
  const children = [];
  let infra;
  // nginx's configuration, pid and temporary files when balanced; removed at stop (a new one is written at each start)
  const nginxPrefix = join(dataDir(profile), `nginx-${port}`);
  const stop = async () => {
    await Promise.all(
      children.reverse().map(
        (c) =>
          new Promise((resolve) => {
            if (c.exitCode !== null || c.signalCode) return resolve();
            c.once('exit', resolve);
            try {
              process.kill(-c.pid, 'SIGTERM');
            } catch {
              resolve();
            }
            setTimeout(() => {
              try {
                process.kill(-c.pid, 'SIGKILL');
              } catch {}
            }, 8000).unref();
          }),
      ),
    );
    if (balanced) rmSync(nginxPrefix, { recursive: true, force: true });
    await infra?.stop();
  };
  try {
    await ensureDebianPackages(debianFor('start'));
    infra = await up({ profile, only: ['nats', 'mongo', 's3', 'mail', 'stripe'] });
    if (build) await buildFrontEnds();
    const compiled = process.env.PAGECAST_RUN !== 'tsx';
    if (compiled) await compileServers({ say });
    const logs = join(dataDir(profile), 'logs');
    mkdirSync(logs, { recursive: true });
    const ports = {};
    for (const s of services) ports[s.name] = profile === 'dev' ? s.devPort : await freePort();
    // Balanced: ports[] are nginx's, and each replica listens on a port of its own.
    const replicaPorts = {};
    for (const s of services)
      replicaPorts[s.name] = balanced ? await Promise.all(Array.from({ length: replicas }, freePort)) : [ports[s.name]];
    const gatewayPorts = balanced ? await Promise.all(Array.from({ length: replicas }, freePort)) : [port];
    const own = isolate ? await isolatedServers(profile, port, children, say, cpus) : {};
    const common = {
      ...process.env,
      PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`,
      ...infra.env,
      ...own,
      NODE_ENV: process.env.NODE_ENV || (profile === 'dev' ? 'development' : 'test'),
      PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${port}`,
      ...Object.fromEntries(services.map((s) => [s.urlVar, `http://127.0.0.1:${ports[s.name]}`])),
      ...extraEnv,
    };
    if (balanced) {
      const pools = [
        { name: 'gateway', listen: port, upstreams: gatewayPorts, edge: true },
        ...services.map((s) => ({ name: s.name, listen: ports[s.name], upstreams: replicaPorts[s.name] })),
      ];
      const nginx = await startNginx({ prefix: nginxPrefix, pools, log: say });
      nginx.pagecastName = 'nginx';
      children.push(nginx);
    }
    // what launched each process, by name, so that restart(name) starts it again the same way (same port: nginx's
    // upstream finds it again)
    const launched = new Map();
    const launch = (name, cwd, envOverrides, readyUrl) => {
      // PAGECAST_NODE_ARGS: more flags for node (the load's CPU profiles: --cpu-prof is refused in NODE_OPTIONS)
      const nodeArgs = [...(ownNodeArgs[cwd] ?? []), ...(common.PAGECAST_NODE_ARGS ?? '').split(' ').filter(Boolean)];
      const [command, args] = compiled
        ? [process.execPath, [...nodeArgs, '--enable-source-maps', 'dist/main.mjs']]
        : [join(root, 'node_modules/.bin/tsx'), ['src/main.ts']];
      const child = spawn(...onCores(cpus, command, args), {
        cwd: join(root, cwd),
        env: { ...common, ...envOverrides },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // own process group, so stop() also ends anything it spawned (conversion workers)
      });
      pipeOutput(child, name, quiet ? createWriteStream(join(logs, `${name}.log`), { flags: 'a' }) : process.stdout);
      child.pagecastName = name;
      children.push(child);
      launched.set(name, { cwd, envOverrides, readyUrl, child });
      return child;
    };
    // replica i of n is named <name>-<i> when there are several (its log, the processes list)
    const named = (name, i) => (balanced ? `${name}-${i + 1}` : name);
    say(`starting ${services.map((s) => s.name).join(', ')}${balanced ? ` (${replicas} of each)` : ''} ...`);
    await Promise.all(
      services.flatMap((s) =>
        replicaPorts[s.name].map((replicaPort, i) => {
          const own = { PORT: String(replicaPort) };
          // localstripe posts its signed webhooks straight to billing (the real provider's endpoint is set in its
          // dashboard); balanced, to billing's nginx address like every other caller.
          if (s.name === 'billing' && common.STRIPE_LOCAL === '1' && !common.STRIPE_LOCAL_WEBHOOK_URL) {
            own.STRIPE_LOCAL_WEBHOOK_URL = `http://127.0.0.1:${ports.billing}/api/payments/webhook`;
          }
          const readyUrl = `http://127.0.0.1:${replicaPort}/readyz`;
          const child = launch(named(s.name, i), s.dir, own, readyUrl);
          return waitReady(readyUrl, named(s.name, i), child);
        }),
      ),
    );
    say(`starting gateway${balanced ? ` (${replicas}, behind nginx on ${port})` : ''} ...`);
    // Its probes and metrics are on an internal listener, never on the public port (docs/platform.md).
    const gateways = [];
    // Each replica its own edge cache of videos. An isolated stack's storage is its own and new, so are its copies
    // (emptied at start, like its NATS store); otherwise they are kept from one start to the next.
    const videoCache = join(dataDir(profile), isolate ? `video-cache-${port}` : 'video-cache');
    if (isolate) rmSync(videoCache, { recursive: true, force: true });
    for (const [i, gatewayPort] of gatewayPorts.entries()) {
      const internalPort =
        (i === 0 && Number(common.INTERNAL_PORT)) || (profile === 'dev' ? 9090 + i : await freePort());
      const gw = launch(
        named('gateway', i),
        'gateway',
        {
          PORT: String(gatewayPort),
          INTERNAL_PORT: String(internalPort),
          VIDEO_CACHE_DIR: common.VIDEO_CACHE_DIR ?? join(videoCache, named('gateway', i)),
        },
        `http://127.0.0.1:${internalPort}/readyz`,
      );
      gateways.push({
        url: `http://localhost:${gatewayPort}`,
        internalUrl: `http://127.0.0.1:${internalPort}`,
        ready: waitReady(`http://127.0.0.1:${internalPort}/readyz`, named('gateway', i), gw),
      });
    }
    await Promise.all(gateways.map((g) => g.ready));
    return {
      url: `http://localhost:${port}`,
      internalUrl: gateways[0].internalUrl,
      /** each gateway's own address (the public port is nginx's when balanced), for tests that pick one */
      gateways: gateways.map(({ url, internalUrl }) => ({ url, internalUrl })),
      replicas,
      env: common,
      ports,
      profile,
      stop,
      /** What runs each process (compiled bundle or tsx) and its pid, for the benchmarks. */
      runner: compiled ? 'node' : 'tsx',
      processes: children.map((c) => ({ name: c.pagecastName, pid: c.pid })),
      /**
       * Kills one process of the stack by its name (`billing-2`, `gateway-1`; the names of `processes`) with
       * `signal` (default SIGKILL, its whole process group), waits until it has exited, starts it again with the
       * same port and environment and resolves once it is ready. Resolves to the new pid.
       */
      async restart(name, signal = 'SIGKILL') {
        const was = launched.get(name);
        if (!was) throw new Error(`no process named ${name} (${[...launched.keys()].join(', ')})`);
        const { child: old, cwd, envOverrides, readyUrl } = was;
        if (old.exitCode === null && !old.signalCode) {
          const exited = new Promise((resolve) => old.once('exit', resolve));
          process.kill(-old.pid, signal);
          await exited;
        }
        const child = launch(name, cwd, envOverrides, readyUrl);
        await waitReady(readyUrl, name, child);
        return child.pid;
      },
      mailUrl: infra.env.MAILDEV_API_URL,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

export { profiles };

// Starts the whole product on one machine: infrastructure, the four services and the gateway. Used by `npm start`
// (dev profile) and by the browser tests (test profile); stop() ends exactly what start started.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrontEnds } from './build.mjs';
import { compileServers } from './compile.mjs';
import { dataDir, profiles, root, up } from './infra.mjs';
import { freePort } from './net.mjs';
import { debianFor, ensureDebianPackages } from './tools.mjs';

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
 * @param {{ profile?: 'dev'|'test', port?: number, build?: boolean, quiet?: boolean, env?: Record<string,string> }} opts
 *   quiet: processes log to .data/<profile>/logs/<name>.log instead of the terminal.
 * The services and the gateway run compiled (scripts/lib/compile.mjs: one bundle each, run by `node`), as in the
 * images; PAGECAST_RUN=tsx runs their TypeScript sources through tsx instead (no compile step, for development).
 */
export async function startStack({
  profile = 'dev',
  port = 8080,
  build = true,
  quiet = false,
  env: extraEnv = {},
} = {}) {
  const say = (m) => process.stdout.write(`[stack] ${m}\n`);
  const children = [];
  let infra;
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
    const common = {
      ...process.env,
      PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`,
      ...infra.env,
      NODE_ENV: process.env.NODE_ENV || (profile === 'dev' ? 'development' : 'test'),
      PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${port}`,
      ...Object.fromEntries(services.map((s) => [s.urlVar, `http://127.0.0.1:${ports[s.name]}`])),
      ...extraEnv,
    };
    const launch = (name, cwd, envOverrides) => {
      const [command, args] = compiled
        ? [process.execPath, ['--enable-source-maps', 'dist/main.mjs']]
        : [join(root, 'node_modules/.bin/tsx'), ['src/main.ts']];
      const child = spawn(command, args, {
        cwd: join(root, cwd),
        env: { ...common, ...envOverrides },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // own process group, so stop() also ends anything it spawned (conversion workers)
      });
      pipeOutput(child, name, quiet ? createWriteStream(join(logs, `${name}.log`), { flags: 'a' }) : process.stdout);
      child.pagecastName = name;
      children.push(child);
      return child;
    };
    say(`starting ${services.map((s) => s.name).join(', ')} ...`);
    await Promise.all(
      services.map((s) => {
        const own = { PORT: String(ports[s.name]) };
        // localstripe posts its signed webhooks straight to billing (the real provider's endpoint is set in its dashboard).
        if (s.name === 'billing' && common.STRIPE_LOCAL === '1' && !common.STRIPE_LOCAL_WEBHOOK_URL) {
          own.STRIPE_LOCAL_WEBHOOK_URL = `http://127.0.0.1:${ports.billing}/api/payments/webhook`;
        }
        const child = launch(s.name, s.dir, own);
        return waitReady(`http://127.0.0.1:${ports[s.name]}/readyz`, s.name, child);
      }),
    );
    say('starting gateway ...');
    // Its probes and metrics are on an internal listener, never on the public port (docs/platform.md).
    const internalPort = Number(common.INTERNAL_PORT) || (profile === 'dev' ? 9090 : await freePort());
    const gw = launch('gateway', 'gateway', { PORT: String(port), INTERNAL_PORT: String(internalPort) });
    await waitReady(`http://127.0.0.1:${internalPort}/readyz`, 'gateway', gw);
    return {
      url: `http://localhost:${port}`,
      internalUrl: `http://127.0.0.1:${internalPort}`,
      env: common,
      ports,
      profile,
      stop,
      /** What runs each process (compiled bundle or tsx) and its pid, for the benchmarks. */
      runner: compiled ? 'node' : 'tsx',
      processes: children.map((c) => ({ name: c.pagecastName, pid: c.pid })),
      mailUrl: infra.env.MAILDEV_API_URL,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

export { profiles };

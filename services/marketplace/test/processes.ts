import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectNats, createLogger, signIdentityHeader } from '@pagecast/service-kit';
import { freePort, registration, removeDurables, testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { destroyMarketplace, publishEvent, startMarketplace, type TestService, waitFor } from './helpers';

const servicesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A service run as its own process (node + tsx as a loader, so the pid is the service's own: kill -9 hits it). */
export interface ServiceProcess {
  url: string;
  env: Record<string, string>;
  child: ChildProcess;
  /** resolves when the process has ended (by a crash point, a kill or a stop) */
  exited: Promise<number | null>;
  kill(): Promise<void>;
  /** Kills it for good: also deletes the durables it made under its run's CONSUMER_PREFIX (kill() keeps them for a
   * restart with the same environment). */
  dispose(): Promise<void>;
}

/** The durables a spawned service made under its run's own CONSUMER_PREFIX. */
async function removeServiceDurables(env: Record<string, string>): Promise<void> {
  if (!env.CONSUMER_PREFIX || !env.NATS_URL) return;
  const { nc, jsm } = await connectNats(env.NATS_URL, createLogger('test-cleanup', 'warn'), 'test-cleanup');
  try {
    await removeDurables(jsm, env.CONSUMER_PREFIX);
  } finally {
    await nc.close();
  }
}

export async function spawnService(
  service: 'billing' | 'marketplace' | 'file-conversion',
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const port = env.PORT ?? String(await freePort());
  const fullEnv = { ...env, PORT: port };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: resolve(servicesDir, service),
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...fullEnv },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${service} exited while starting`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${service} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return {
    url,
    env: fullEnv,
    child,
    exited,
    kill,
    async dispose() {
      await kill();
      await removeServiceDurables(fullEnv);
    },
  };
}

/** Billing's environment for one test run: its own database and durables, NATS events from now on. */
export function billingEnv(over: Record<string, string> = {}): Record<string, string> {
  return {
    ...(testEnv() as unknown as Record<string, string>),
    MONGO_DB: uniqueName('bl_mp_test').replace(/-/g, '_'),
    CONSUMER_PREFIX: uniqueName('bl-mp-test'),
    EVENTS_DELIVER: 'new',
    JOBS_INTERVAL_MS: '500',
    TRANSFER_SWEEP_AFTER_MS: '1000',
    ...over,
  };
}

/** The member's balance as billing's points summary says. */
export async function balanceOf(billingUrl: string, userId: string): Promise<number> {
  const res = await fetch(`${billingUrl}/api/points/summary`, {
    headers: {
      'x-pagecast-identity': signIdentityHeader({ userId, sessionId: `s-${userId}` }, testEnv().INTERNAL_SECRET),
    },
  });
  if (!res.ok) throw new Error(`points summary answered ${res.status}`);
  return ((await res.json()) as { balance: number }).balance;
}

/** The purchase path as deployed: billing as its own process, the marketplace in-process asking it. */
export interface WithBilling {
  billing: ServiceProcess;
  svc: TestService;
  /** Registers a member as account announces it (a trial: its first 30 days cost nothing, so balances move only by
   * purchases); resolves once billing has opened the account with these points. */
  register(userId: string, points: number): Promise<void>;
  /** Ends both and drops what they made. */
  close(): Promise<void>;
}

export async function startWithBilling(): Promise<WithBilling> {
  const billing = await spawnService('billing', billingEnv());
  const svc = await startMarketplace({ env: { BILLING_URL: billing.url } });
  return {
    billing,
    svc,
    async register(userId, points) {
      await publishEvent(
        svc,
        'account.user.registered.v1',
        registration(userId, { points, registeredAt: new Date(Date.now() - 60_000).toISOString() }),
      );
      await waitFor(`${userId} opened`, async () => (await balanceOf(billing.url, userId).catch(() => -1)) === points);
    },
    async close() {
      await destroyMarketplace(svc);
      await billing.dispose();
    },
  };
}

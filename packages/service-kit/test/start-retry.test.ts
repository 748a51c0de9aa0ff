// A service started before its NATS is there waits for it (start-retry.ts) instead of exiting: the runtime is
// started against a free port with nothing on it, a real nats-server (JetStream on) is started there seconds later,
// and the service comes up, its streams and durable consumer made, and serves. A bound still ends a start that
// waits for nothing, with a clear error.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createEvent, subjects } from '@pagecast/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { consume } from '../src/nats';
import { type RunningService, type RuntimeContext, startServiceRuntime } from '../src/runtime';
import { StartTimeoutError, startRetryDelay } from '../src/start-retry';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger, waitFor } from './helpers';

/** the nats-server the project's scripts installed (scripts/infra.mjs) */
function natsServerBinary(): string {
  const dir = path.join(homedir(), '.cache/pagecast/bin');
  const name = existsSync(dir) ? readdirSync(dir).find((n) => n.startsWith('nats-server')) : undefined;
  if (!name) throw new Error(`no nats-server in ${dir}: run node scripts/infra.mjs up --profile test once`);
  const entry = path.join(dir, name);
  // a folder holding the binary, or the binary itself
  return existsSync(path.join(entry, 'nats-server')) ? path.join(entry, 'nats-server') : entry;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function startNats(port: number): ChildProcess {
  const store = mkdtempSync(path.join(tmpdir(), 'pagecast-late-nats-'));
  const child = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  cleanups.push(async () => {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r).once('error', r));
    rmSync(store, { recursive: true, force: true });
  });
  return child;
}

describe('start-up waits for its servers', () => {
  it('the wait doubles from 250 ms to 5 s, drawn between half and all of it', () => {
    expect([1, 2, 3, 4, 5, 6, 40].map((n) => startRetryDelay(n, () => 1))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
    expect(startRetryDelay(1, () => 0)).toBe(125);
    expect(startRetryDelay(9, () => 0)).toBe(2500);
  });

  it('a service started before its NATS is ready comes up when it is, consumers and all', async () => {
    const port = await freePort();
    const { logger, lines } = captureLogger();
    const handled: string[] = [];
    const db = uniqueName('kit_late_nats');
    const starting: Promise<RunningService<RuntimeContext>> = startServiceRuntime({
      name: 'billing',
      config: loadConfig(
        {},
        { ...testEnv(), PORT: '0', LOG_LEVEL: 'silent', MONGO_DB: db, NATS_URL: `nats://127.0.0.1:${port}` },
      ),
      logger,
      databaseName: 'unused',
      context: (base) => base,
      mount: async (context, onClose) => {
        const consumer = await consume(context.nats.js, {
          stream: 'ACCOUNT',
          durable: uniqueName('kit_late'),
          subjects: [subjects.userRegistered],
          handler: async (e) => {
            handled.push(e.id);
          },
          logger,
        });
        onClose(() => consumer.stop());
        return [];
      },
    });
    let settled = false;
    void starting.then(
      (s) => {
        settled = true;
        cleanups.push(async () => {
          await s.context.conn.dropDatabase();
          await s.close();
        });
      },
      () => {
        settled = true;
      },
    );
    // nothing there for 3 s: the start waits, saying so, and does not fail
    await new Promise((r) => setTimeout(r, 3000));
    expect(settled).toBe(false);
    const waits = lines.filter((l) => l.what === 'nats' && l.level === 40);
    expect(waits.length).toBeGreaterThan(2);
    expect(String(waits[0]?.msg)).toMatch(/^nats not ready at start, trying again in \d+ ms$/);

    startNats(port);
    const service = await starting;
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    expect(lines.some((l) => l.what === 'nats' && l.msg === 'nats ready')).toBe(true);
    // the streams and the durable consumer were made on the late server: an event reaches the handler
    const event = createEvent(subjects.userRegistered, {
      userId: 'u1',
      email: 'late@example.test',
      firstName: 'Late',
      lastName: 'Start',
      membershipTier: 'free',
      points: 0,
      registeredAt: new Date().toISOString(),
      locale: 'ja',
    });
    const id = event.id;
    await service.context.nats.js.publish(subjects.userRegistered, JSON.stringify(event), { msgID: id });
    await waitFor('the event handled', () => handled.includes(id));
  }, 60_000);

  it('gives up after START_TIMEOUT_MS with an error that says what it waited for', async () => {
    const port = await freePort();
    const { logger, lines } = captureLogger();
    const started = Date.now();
    await expect(
      startServiceRuntime({
        name: 'billing',
        config: loadConfig(
          {},
          {
            ...testEnv(),
            PORT: '0',
            LOG_LEVEL: 'silent',
            MONGO_DB: uniqueName('kit_no_nats'),
            NATS_URL: `nats://127.0.0.1:${port}`,
            START_TIMEOUT_MS: '2000',
          },
        ),
        logger,
        databaseName: 'unused',
        context: (base) => base,
        mount: () => [],
      }),
    ).rejects.toThrow(StartTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines.some((l) => l.level === 50 && /^nats not reachable within 2 s of start/.test(String(l.msg)))).toBe(
      true,
    );
  }, 30_000);
});

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLIENT_ADDRESS_HEADER,
  createEvent,
  type EventData,
  type EventEnvelope,
  IDENTITY_HEADER,
  type Subject,
  type WorkspaceRole,
} from '@pagecast/contracts';
import { seededRandom } from './failpoints';
import { signClientAddressHeader, signDeviceIdentityHeader, signIdentityHeader } from './identity';
import type { JetStreamClient, JetStreamManager } from './nats';

/** Repository root (this file is packages/service-kit/src/testing.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A TCP port free on 127.0.0.1 at the time of asking (the OS picks it), for a service a test starts as a process of
 * its own. Another process may take it before it is used: start the server at once.
 */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** `.data/test/secrets.env`, written by `node scripts/infra.mjs up --profile test`; empty when absent. */
function testSecrets(): Record<string, string> {
  const file = resolve(repoRoot, '.data/test/secrets.env');
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
  );
}

// Stable for the whole process, so a service and the test that signs headers for it agree.
const fallbackSecret = randomBytes(32).toString('base64url');

export interface TestEnv {
  MONGO_URL: string;
  NATS_URL: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  SMTP_URL: string;
  MAILDEV_API_URL: string;
  STRIPE_API_BASE: string;
  INTERNAL_SECRET: string;
}

/** Servers of the test profile (docs/platform.md); the environment wins, as in `scripts/infra.mjs env`. */
export function testEnv(env: NodeJS.ProcessEnv = process.env): TestEnv {
  const secrets = testSecrets();
  const pick = (name: string, dflt: string): string => env[name] || secrets[name] || dflt;
  return {
    MONGO_URL: pick('MONGO_URL', 'mongodb://127.0.0.1:27117'),
    NATS_URL: pick('NATS_URL', 'nats://127.0.0.1:14222'),
    S3_ENDPOINT: pick('S3_ENDPOINT', 'http://127.0.0.1:19000'),
    S3_ACCESS_KEY: pick('S3_ACCESS_KEY', ''),
    S3_SECRET_KEY: pick('S3_SECRET_KEY', ''),
    S3_BUCKET: pick('S3_BUCKET', 'pagecast'),
    SMTP_URL: pick('SMTP_URL', 'smtp://127.0.0.1:11025'),
    MAILDEV_API_URL: pick('MAILDEV_API_URL', 'http://127.0.0.1:11080'),
    STRIPE_API_BASE: pick('STRIPE_API_BASE', 'http://127.0.0.1:12211'),
    INTERNAL_SECRET: pick('INTERNAL_SECRET', fallbackSecret),
  };
}

/**
 * The seed of a test's random choices (which crash points fire, when a process is killed), printed so that a failing
 * run can be replayed. PAGECAST_TEST_SEED gives it (a number from 0 to 2^32-1, or `random` for a new one); the default
 * is 1, so that CI judges a commit and not a dice roll (as the fuzzing's FUZZ_SEED). `random()` draws from it in
 * [0, 1); pass `seed` on to the services as `seed=<n>` in PAGECAST_FAILPOINTS, or draw their seeds from `random`.
 */
export function testSeed(label: string, env: NodeJS.ProcessEnv = process.env): { seed: number; random: () => number } {
  const given = env.PAGECAST_TEST_SEED?.trim() || '1';
  const seed = given === 'random' ? randomBytes(4).readUInt32BE(0) : Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(`PAGECAST_TEST_SEED must be an integer from 0 to 4294967295 or "random", not "${given}"`);
  }
  console.log(`[seed] ${label}: ${seed} (PAGECAST_TEST_SEED=${seed} replays it)`);
  return { seed, random: seededRandom(seed) };
}

/**
 * A name no other test run uses: the prefix, then lowercase letters, digits and `-` (valid for a database, a NATS
 * durable and, with a lowercase prefix, an S3 bucket).
 */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes every durable named `<prefix>-…` on every stream: what a test or bench run made under its own prefix
 * (uniqueName), which would otherwise stay on the shared server counting each later event as pending.
 */
export async function removeDurables(jsm: JetStreamManager, prefix: string): Promise<void> {
  for await (const stream of jsm.streams.list()) {
    for await (const c of jsm.consumers.list(stream.config.name)) {
      if (c.name.startsWith(`${prefix}-`)) await jsm.consumers.delete(stream.config.name, c.name).catch(() => {});
    }
  }
}

/** A service run in-process by a component test (each service's TestService has its NATS there). */
export interface WithNats {
  server: { context: { nats: { js: JetStreamClient } } };
}

/**
 * Publishes an event as the service that owns its subject would: a test standing in for another service. The NATS
 * is shared by every test running at the time, so the real services of other tests see it too (a billing opens an
 * account for a registration and announces its tier): give an event that must come after theirs an `occurredAt`
 * that says so.
 */
export async function publishEvent<S extends Subject>(
  svc: WithNats,
  type: S,
  data: EventData<S>,
  opts: { id?: string; occurredAt?: Date } = {},
): Promise<EventEnvelope<S>> {
  const event = createEvent(type, data, opts);
  await svc.server.context.nats.js.publish(type, JSON.stringify(event), { msgID: event.id });
  return event;
}

/** A registration as account announces it: a trial member with 300 points, registered now, unless `over` says. */
export function registration(
  userId: string,
  over: Partial<EventData<'account.user.registered.v1'>> = {},
): EventData<'account.user.registered.v1'> {
  return {
    userId,
    email: `${userId}@example.com`,
    firstName: 'Test',
    lastName: 'Member',
    membershipTier: 'trial',
    points: 300,
    registeredAt: new Date().toISOString(),
    locale: 'ja',
    ...over,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, field by field
export type Json = any;

/**
 * Who a component test calls as: a member (signed as the gateway signs; with `workspaceId` and `role`, acting in that
 * workspace with that role, as the gateway says once it has found the membership), a paired display, or nobody.
 */
export type TestCaller =
  | { userId: string; sessionId?: string; workspaceId?: string; role?: WorkspaceRole }
  | { device: { deviceId: string; screenId: string; ownerId: string } }
  | null
  | undefined;

export interface TestAnswer {
  status: number;
  /** parsed JSON, or the text when it is not JSON (undefined when empty) */
  body: Json;
  text: string;
  headers: Headers;
}

/** The header by which the gateway tells a service the caller's address (signed with `secret`), for a test's call. */
export function clientAddressHeaders(address: string, secret: string): Record<string, string> {
  return { [CLIENT_ADDRESS_HEADER]: signClientAddressHeader(address, secret) };
}

/**
 * One call to a service under test, as the gateway would pass it: the caller's identity header signed with
 * `secret`, a JSON body (a string is sent as is), redirects not followed. Every service's tests call through this.
 */
export async function callService(
  baseUrl: string,
  secret: string,
  who: TestCaller,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TestAnswer> {
  const h: Record<string, string> = { ...headers };
  if (who && 'userId' in who) {
    h[IDENTITY_HEADER] = signIdentityHeader(
      {
        userId: who.userId,
        sessionId: who.sessionId ?? `s-${who.userId}`,
        workspaceId: who.workspaceId,
        role: who.role,
      },
      secret,
    );
  } else if (who) h[IDENTITY_HEADER] = signDeviceIdentityHeader(who.device, secret);
  if (body !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
    h['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: h,
    redirect: 'manual',
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text || undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Polls `probe` until it gives a truthy value, or fails saying what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

import { randomUUID } from 'node:crypto';
import { signDeviceIdentityHeader, signIdentityHeader } from '@pagecast/service-kit';
import { testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { loadServiceConfig } from '../src/config';
import { consumerNames } from '../src/events';
import { createServer, type Server } from '../src/server';

/** A JSON answer: its shape is what the assertions check. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
export type Json = any;

export interface TestService {
  server: Server;
  env: Record<string, string>;
  /** the service's clock: tests move it forward */
  clock: { offsetMs: number };
  close(): Promise<void>;
}

export async function startService(extra: Record<string, string> = {}): Promise<TestService> {
  const env: Record<string, string> = {
    ...(testEnv() as unknown as Record<string, string>),
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MONGO_DB: uniqueName('screens_test').replace(/-/g, '_'),
    CONSUMER_PREFIX: uniqueName('screens-test'),
    EVENTS_DELIVER: 'new',
    ...extra,
  };
  const clock = { offsetMs: 0 };
  const server = await createServer(loadServiceConfig(env), { now: () => Date.now() + clock.offsetMs });
  return {
    server,
    env,
    clock,
    async close() {
      const { jsm } = server.context.nats;
      for (const [stream, name] of Object.entries(consumerNames(server.context.config.CONSUMER_PREFIX)))
        await jsm.consumers.delete(stream, name).catch(() => {});
      await server.context.conn.dropDatabase().catch(() => {});
      await server.close();
    },
  };
}

export type Caller = { userId: string } | { device: { deviceId: string; screenId: string; ownerId: string } } | null;

export const member = (userId = `u-${randomUUID()}`) => ({ userId });

/** A call as the gateway passes it: a member's or a device's signed identity header, or none. */
export async function call(
  svc: TestService,
  who: Caller,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: Json; headers: Headers; text: string }> {
  const secret = svc.env.INTERNAL_SECRET ?? '';
  const headers: Record<string, string> = { ...extraHeaders };
  if (who && 'userId' in who) {
    headers['x-pagecast-identity'] = signIdentityHeader({ userId: who.userId, sessionId: `s-${who.userId}` }, secret);
  } else if (who) headers['x-pagecast-identity'] = signDeviceIdentityHeader(who.device, secret);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${svc.server.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (CSV)
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

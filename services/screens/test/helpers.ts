import { randomUUID } from 'node:crypto';
import { callService, type Json, type TestAnswer, testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { loadServiceConfig } from '../src/config';
import { consumerNames } from '../src/events';
import { createServer, type Server } from '../src/server';

/** A JSON answer: its shape is what the assertions check. */
export type { Json };

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
): Promise<TestAnswer> {
  return callService(svc.server.url, svc.env.INTERNAL_SECRET ?? '', who, method, path, body, extraHeaders);
}

import { randomUUID } from 'node:crypto';
import type { EventData, WorkspaceRole } from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import { callService, type Json, publishEvent, testEnv, uniqueName, waitFor } from '@pagecast/service-kit/testing';
import { loadServiceConfig } from '../src/config';
import type { BillingClient } from '../src/data/billing';
import { consumerNames } from '../src/events';
import { createServer, type Server } from '../src/server';

export type { Json };
export { publishEvent, waitFor };

export interface TestService {
  server: Server;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The marketplace in-process against the test servers, with its own database and read-model durables. */
export async function startMarketplace(
  opts: { env?: Record<string, string>; billing?: BillingClient; share?: TestService; jobs?: boolean } = {},
): Promise<TestService> {
  const env: Record<string, string> = {
    ...(opts.share?.env ?? {
      ...(testEnv() as unknown as Record<string, string>),
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      MONGO_DB: uniqueName('mp_test').replace(/-/g, '_'),
      CONSUMER_PREFIX: uniqueName('mp-test'),
      EVENTS_DELIVER: 'new',
      PAGECAST_FAILPOINTS: 'marketplace.clock',
    }),
    ...opts.env,
  };
  const server = await createServer(loadServiceConfig(env), { billing: opts.billing, jobs: opts.jobs ?? false });
  return { server, env, close: () => server.close() };
}

/** Drops what a run made: database and durables. */
export async function destroyMarketplace(svc: TestService): Promise<void> {
  const { context } = svc.server;
  for (const [stream, name] of Object.entries(consumerNames(svc.env.CONSUMER_PREFIX ?? ''))) {
    await context.nats.jsm.consumers.delete(stream, name).catch(() => {});
  }
  // dropped once its writers (consumers, jobs, outbox relay) have stopped
  await svc.server.close({ dropDatabase: true });
}

export function identityHeaders(svc: TestService, userId: string): Record<string, string> {
  return {
    'x-pagecast-identity': signIdentityHeader({ userId, sessionId: `s-${userId}` }, svc.env.INTERNAL_SECRET ?? ''),
  };
}

/**
 * A call as the gateway would pass it: signed identity of `who` (none when undefined): a member's id (acting in their
 * own workspace), or a member acting in `workspaceId` with `role`.
 */
export async function call(
  svc: TestService,
  who: string | { userId: string; workspaceId: string; role: WorkspaceRole } | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const caller = typeof who === 'string' ? { userId: who } : (who ?? null);
  return callService(svc.server.url, svc.env.INTERNAL_SECRET ?? '', caller, method, path, body);
}

export const newId = () => randomUUID();

let tick = Date.parse('2026-01-01T00:00:00Z');
/** Increasing timestamps, so "newest first" has a defined order. */
export const nextTime = () => {
  tick += 1000;
  return new Date(tick).toISOString();
};

/** A file on sale, as file-conversion announces it. */
export function listingEvent(
  over: Partial<EventData<'files.file.published.v1'>> = {},
): EventData<'files.file.published.v1'> {
  return {
    fileId: newId(),
    ownerId: uniqueName('seller'),
    title: 'Sample deck',
    publishPrice: 3000,
    pageCount: 3,
    displayDuration: 30,
    tags: [],
    updatedAt: nextTime(),
    ...over,
  };
}

/**
 * Where each of the service's read-model durables stands on its stream: what was delivered and acked, what is left,
 * how many pulls wait on the server. Said when a read model does not catch up, so a stalled consumer, a failing
 * handler and a lost write tell themselves apart.
 */
export async function readModelState(svc: TestService): Promise<string> {
  const { jsm } = svc.server.context.nats;
  const lines: string[] = [];
  for (const [stream, name] of Object.entries(consumerNames(svc.env.CONSUMER_PREFIX ?? ''))) {
    try {
      const [c, s] = await Promise.all([jsm.consumers.info(stream, name), jsm.streams.info(stream)]);
      lines.push(
        `${stream}/${name}: stream last ${s.state.last_seq}, delivered ${c.delivered.stream_seq} ` +
          `(${c.delivered.last_active ?? 'never'}), acked to ${c.ack_floor.stream_seq}, pending ${c.num_pending}, ` +
          `ack pending ${c.num_ack_pending}, redelivered ${c.num_redelivered}, waiting pulls ${c.num_waiting}`,
      );
    } catch (err) {
      lines.push(`${stream}/${name}: ${(err as Error).message}`);
    }
  }
  return lines.join('\n');
}

/** waitFor on one of the service's read models; a time-out says where its durables stand. */
export async function waitForRead<T>(
  svc: TestService,
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs?: number,
  everyMs?: number,
): Promise<T> {
  try {
    return await waitFor(what, probe, timeoutMs, everyMs);
  } catch (err) {
    throw new Error(`${(err as Error).message} at ${new Date().toISOString()}\n${await readModelState(svc)}`);
  }
}

/** Publishes listings and waits until the read model holds the last of them. */
export async function publishListings(svc: TestService, list: EventData<'files.file.published.v1'>[]): Promise<void> {
  for (const l of list) await publishEvent(svc, 'files.file.published.v1', l);
  const last = list.at(-1);
  if (last) await waitForRead(svc, 'listing stored', () => svc.server.context.data.listings.get(last.fileId));
}

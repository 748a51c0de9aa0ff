import { randomUUID } from 'node:crypto';
import { createEvent, type EventData, type Subject, subjects, type WorkspaceRole } from '@pagecast/contracts';
import {
  callService,
  clientAddressHeaders,
  type Json,
  type TestAnswer,
  testEnv,
  uniqueName,
} from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Clock } from '@pagecast/service-kit';
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
    // incidents are swept by the tests on the service's clock, never by a timer in the background
    INCIDENT_SWEEP_MS: '0',
    // the displays' socket calls (NATS request/reply) of this instance only: the test NATS is shared
    DEVICE_RPC_SUBJECT_PREFIX: `${uniqueName('screens-test')}.device`,
    // play records go through a stream of this test's own (the judge purges what it stored)
    PLAYS_STREAM: uniqueName('PLAYS').replace(/-/g, '_'),
    // short: the tests wait for the judge after each batch (the gathering still runs)
    PLAY_JUDGE_GATHER_MS: '50',
    ...extra,
  };
  return open(env, 0, { dropDatabase: true });
}

/**
 * The service of a test file: started before its tests (beforeAll), closed after them. The answer stands for it and
 * can be used once the tests run, so a file declares it at its top: `const svc = useService();`.
 */
export function useService(extra: Record<string, string> = {}): TestService {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startService(extra);
  });
  afterAll(async () => {
    await started?.close();
  });
  const it = () => {
    if (!started) throw new Error('the service starts in beforeAll: use it in a hook or a test');
    return started;
  };
  return {
    get server() {
      return it().server;
    },
    get env() {
      return it().env;
    },
    get clock() {
      return it().clock;
    },
    close: () => it().close(),
  };
}

/** Another instance of the service on the same database and clock (as a second replica would run). */
export function startReplica(svc: TestService, extra: Record<string, string> = {}): Promise<TestService> {
  const env = { ...svc.env, CONSUMER_PREFIX: `${svc.env.CONSUMER_PREFIX}-b`, ...extra };
  return open(env, svc.clock.offsetMs, { dropDatabase: false });
}

/**
 * The service's clock as the tests move it: real time plus `offsetMs`, which a test changes at will. Not adjustable
 * through the service (no test-clock route: that is the failpoint's, tested on its own).
 */
function offsetClock(state: { offsetMs: number }): Clock {
  const fixed = () => {
    throw new Error('the component tests move the clock by offsetMs');
  };
  return {
    adjustable: false,
    ms: () => Date.now() + state.offsetMs,
    now: () => new Date(Date.now() + state.offsetMs),
    set: fixed,
    advance: fixed,
  };
}

async function open(
  env: Record<string, string>,
  offsetMs: number,
  { dropDatabase }: { dropDatabase: boolean },
): Promise<TestService> {
  const clock = { offsetMs };
  const server = await createServer(loadServiceConfig(env), { clock: offsetClock(clock) });
  return {
    server,
    env,
    clock,
    async close() {
      const { jsm } = server.context.nats;
      for (const [stream, name] of Object.entries(consumerNames(server.context.config.CONSUMER_PREFIX)))
        await jsm.consumers.delete(stream, name).catch(() => {});
      if (dropDatabase) {
        await jsm.streams.delete(server.context.config.PLAYS_STREAM).catch(() => {});
      }
      // dropped once its writers (consumers, jobs, outbox relay) have stopped
      await server.close({ dropDatabase });
    },
  };
}

/** A member (with `workspaceId` and `role`: acting in that workspace with that role), a paired display, or nobody. */
export type Caller =
  | { userId: string; workspaceId?: string; role?: WorkspaceRole }
  | { device: { deviceId: string; screenId: string; ownerId: string } }
  | null;

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

/** Waits until every read-model consumer of the service has handled (and acknowledged) all it was sent. */
export async function eventsHandled(svc: TestService): Promise<void> {
  const { jsm } = svc.server.context.nats;
  const names = Object.entries(consumerNames(svc.server.context.config.CONSUMER_PREFIX));
  for (;;) {
    const infos = await Promise.all(names.map(([stream, name]) => jsm.consumers.info(stream, name)));
    if (infos.every((i) => i.num_pending === 0 && i.num_ack_pending === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The headers of a call from `address`, as the gateway states it (signed). */
export const from = (address: string) => clientAddressHeaders(address, testEnv().INTERNAL_SECRET);

/** A paired display of `owner`: the screen's id and the device identity its token stands for. */
export async function pairDisplay(svc: TestService, owner: { userId: string }, name = 'Display') {
  const started = await call(
    svc,
    null,
    'POST',
    '/api/screens/pairing',
    undefined,
    from(`10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`),
  );
  const { pairingId, pollSecret, code } = started.body as { pairingId: string; pollSecret: string; code: string };
  const paired = await call(svc, owner, 'POST', '/api/screens', { code, name });
  if (paired.status !== 201) throw new Error(`pairing failed: ${paired.status} ${JSON.stringify(paired.body)}`);
  const polled = await call(svc, null, 'POST', `/api/screens/pairing/${pairingId}/poll`, { pollSecret });
  const cookie = polled.headers.get('set-cookie') ?? '';
  const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const screenId = paired.body.id as string;
  return { screenId, device: { deviceId: claims.sub as string, screenId, ownerId: owner.userId } };
}

/**
 * The facts other services announce, published as they would (file-conversion's files and playlists, marketplace's
 * purchases), with the times given.
 */
export function announcer(svc: TestService) {
  const iso = (ms: number) => new Date(ms).toISOString();
  // the connection read at each publish: a file's announcer is made before its service starts (useService)
  const publish = async <S extends Subject>(subject: S, data: EventData<S>) => {
    await svc.server.context.nats.js.publish(subject, JSON.stringify(createEvent(subject, data)));
  };
  return {
    /** A converted file of `ownerId` with `pageCount` pages; returns its id. */
    async file(
      ownerId: string,
      pageCount: number,
      at: number,
      fileId = `file-${randomUUID()}`,
      /** a converted video of this length (ms): its poster is its one page */
      videoMs?: number,
    ): Promise<string> {
      await publish(subjects.fileUploaded, {
        fileId,
        ownerId,
        title: 'Deck',
        kind: videoMs === undefined ? 'pdf' : 'video',
        sizeBytes: 1000,
        uploadedAt: iso(at),
      });
      await publish(subjects.fileUpdated, {
        fileId,
        ownerId,
        title: 'Deck',
        status: 'private',
        pageCount,
        displayDuration: 10,
        displayMode: 'fit-width',
        tags: [],
        isPublished: false,
        publishPrice: null,
        updatedAt: iso(at),
        ...(videoMs === undefined ? {} : { videoDurationMs: videoMs }),
      });
      return fileId;
    },
    async fileDeleted(ownerId: string, fileId: string, at: number): Promise<void> {
      await publish(subjects.fileDeleted, { fileId, ownerId, deletedAt: iso(at) });
    },
    /** The playlist's files from `at` on; returns its id. */
    async playlist(ownerId: string, fileIds: string[], at: number, playlistId = `pl-${randomUUID()}`): Promise<string> {
      await publish(subjects.playlistSaved, { playlistId, ownerId, name: 'List', fileIds, updatedAt: iso(at) });
      return playlistId;
    },
    /** `buyerId` bought `fileId` of `sellerId` at `from`; the licence ends at `to`. */
    async purchase(buyerId: string, fileId: string, sellerId: string, from: number, to: number): Promise<void> {
      await publish(subjects.purchaseCompleted, {
        purchaseId: randomUUID(),
        buyerId,
        fileId,
        sellerId,
        price: 3000,
        sellerNet: 2700,
        purchasedAt: iso(from),
        expiresAt: iso(to),
      });
    },
  };
}

export type Device = { deviceId: string; screenId: string; ownerId: string };

/** What the service answers to a batch of play records. */
export interface PlayVerdicts {
  accepted: number;
  duplicates: number;
  refused: number;
  refusedByReason: Record<string, number>;
}

/** Waits until the play judge has judged and stored every record the intake stream took (of any instance). */
export async function playsJudged(svc: TestService): Promise<void> {
  const { intake } = svc.server.context.data;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const waiting = await intake.backlog();
    if (waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting} records still wait for the play judge after 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What is stored of these records: counted ids, and refused ids with their reasons. */
async function storedVerdicts(svc: TestService, ids: string[]) {
  const db = svc.server.context.conn;
  const [counted, refused] = await Promise.all([
    db
      .collection('plays')
      .find({ _id: { $in: ids as never[] } }, { projection: { _id: 1 } })
      .toArray(),
    db
      .collection('play_refusals')
      .find({ _id: { $in: ids as never[] } }, { projection: { reason: 1 } })
      .toArray(),
  ]);
  return {
    counted: new Set(counted.map((d) => String(d._id))),
    refused: new Map(refused.map((d) => [String(d._id), String(d.reason)])),
  };
}

/**
 * Posts a batch of play records as the display. Answered 200, its records are in the intake stream: this waits
 * until the judge has stored them, and the answer's body then says what the batch's answer said before the stream:
 * per record, counted now (`accepted`), refused now (`refused`, by reason) or stored before (`duplicates`). Read
 * from what is stored, so a test proves what the judge did, not what the display was told. Any other answer is
 * returned as it came.
 */
export async function postPlays(svc: TestService, device: Device, body: unknown): Promise<TestAnswer> {
  const plays = (body as { plays?: unknown } | null)?.plays;
  const ids = Array.isArray(plays) ? plays.map((p) => String((p as { id?: unknown }).id)) : [];
  const before = await storedVerdicts(svc, ids);
  const res = await call(svc, { device }, 'POST', '/api/screens/device/plays', body);
  if (res.status !== 200) return res;
  const taken = res.body as unknown as PlayVerdicts;
  expect(taken.accepted + taken.duplicates).toBe(ids.length);
  await playsJudged(svc);
  const after = await storedVerdicts(svc, ids);
  const verdicts: PlayVerdicts = { accepted: 0, duplicates: 0, refused: 0, refusedByReason: {} };
  for (const id of new Set(ids)) {
    if (before.counted.has(id) || before.refused.has(id)) verdicts.duplicates++;
    else if (after.counted.has(id)) verdicts.accepted++;
    else if (after.refused.has(id)) {
      const reason = after.refused.get(id) as string;
      verdicts.refused++;
      verdicts.refusedByReason[reason] = (verdicts.refusedByReason[reason] ?? 0) + 1;
    }
  }
  return { ...res, body: verdicts as unknown as TestAnswer['body'] };
}

/** postPlays of `{ ...extra, plays }`, which must be answered 200; its body. */
export async function sendPlays(
  svc: TestService,
  device: Device,
  plays: unknown[],
  /** the rest of the batch (a signed batch's `signed`) */
  extra: Record<string, unknown> = {},
): Promise<PlayVerdicts> {
  const res = await postPlays(svc, device, { ...extra, plays });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as PlayVerdicts;
}

/** The owner gives the screen what it plays (a file, a playlist, a schedule). */
export async function assign(svc: TestService, owner: Caller, screenId: string, assignment: unknown): Promise<void> {
  const res = await call(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment });
  expect(res.status).toBe(200);
}

/**
 * A display of `owner` paired and given `fileId` (announced already), once the service has read every announcement:
 * the setup most proof-of-play tests start from.
 */
export async function displayGiven(svc: TestService, owner: { userId: string }, fileId: string): Promise<Device> {
  await eventsHandled(svc);
  const { device } = await pairDisplay(svc, owner);
  await assign(svc, owner, device.screenId, { kind: 'file', fileId });
  return device;
}

/** Runs `steps` with the service's clock set to `at` (it runs on from there; steps may move it), then sets it back. */
export async function onClock(svc: TestService, at: number, steps: () => Promise<void>): Promise<void> {
  svc.clock.offsetMs = at - Date.now();
  try {
    await steps();
  } finally {
    svc.clock.offsetMs = 0;
  }
}

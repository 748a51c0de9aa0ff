// The display's socket calls as the gateway relays them (docs/device-socket.md): core NATS request/reply on
// `<prefix>.<type>` to two instances of the service (one queue group) on one database, sent with the kit's
// deviceRpcClient, the gateway's own code. Each call must have the HTTP route's effect and answer: the same status
// and body (errors included), the same stored state; a play batch sent again (its reply lost with a socket) counts
// once; a revocation through one instance is refused by either; one instance stopping leaves the other answering.
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { deviceRpcClient, signDeviceIdentityHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, ok } from './fleet-helpers';
import {
  announcer,
  call,
  type Caller,
  type Device,
  displayGiven,
  eventsHandled,
  type Json,
  member,
  pairDisplay,
  startReplica,
  startService,
  type TestService,
} from './helpers';

let a: TestService;
let b: TestService;
let nc: NatsConnection;
let rpc: ReturnType<typeof deviceRpcClient>;
const prefix = `screens-test-${randomUUID().slice(0, 8)}.device`;
const secret = testEnv().INTERNAL_SECRET;

beforeAll(async () => {
  a = await startService({ DEVICE_RPC_SUBJECT_PREFIX: prefix });
  b = await startReplica(a);
  nc = await connect({ servers: testEnv().NATS_URL });
  rpc = deviceRpcClient(nc, { prefix, timeoutMs: 5000 });
});
afterAll(async () => {
  await nc?.close();
  await b?.close();
  await a?.close();
});

/** A call over the socket path: the frame as the display sends it, the service's `{status, body}` answer. */
async function overSocket(device: Device, type: string, body: unknown): Promise<{ status: number; body: Json }> {
  const frame = JSON.stringify({ type, ref: 1, body });
  return JSON.parse(await rpc(type, signDeviceIdentityHeader(device, secret), frame));
}
const overHttp = async (device: Device, path: string, body: unknown) => {
  const res = await call(a, { device }, 'POST', path, body);
  return { status: res.status, body: res.body };
};

const screenOf = async (owner: Caller, screenId: string): Promise<Json> =>
  ((await ok(a, owner, 'GET', '/api/screens')) as unknown as Json[]).find((s) => s.id === screenId) as Json;
const healthItem = async (owner: Caller, screenId: string): Promise<Json> => {
  const all = await ok(a, owner, 'GET', '/api/screens/health?limit=200');
  return (all.items as Json[]).find((i) => i.screenId === screenId) as Json;
};

const beatBody = (fileId: string, over: Record<string, unknown> = {}) => ({
  appVersion: '1.0.0',
  screenSize: { width: 1920, height: 1080 },
  nowPlaying: { fileId, page: 1 },
  shows: {
    kind: 'page',
    fileId,
    page: 1,
    shownAt: new Date().toISOString(),
    holdSeconds: 3600,
    loaded: true,
    error: null,
  },
  sentAt: new Date().toISOString(),
  ...over,
});

describe("the display's socket calls, on two instances", () => {
  it('a heartbeat with a shown report stores what the HTTP one stores, and answers the same', async () => {
    const owner = member();
    const fileId = await announcer(a).file(owner.userId, 2, Date.now() - 60_000);
    const viaHttp = await displayGiven(a, owner, fileId);
    const viaSocket = await displayGiven(a, owner, fileId);
    await eventsHandled(b);
    const body = beatBody(fileId);
    const http = await overHttp(viaHttp, '/api/screens/device/heartbeat', body);
    const socket = await overSocket(viaSocket, 'heartbeat', body);
    expect(socket).toEqual(http);
    expect(socket).toEqual({ status: 200, body: { ok: true } });
    const pick = (s: Json) => ({
      online: s.online,
      appVersion: s.appVersion,
      screenSize: s.screenSize,
      nowPlaying: s.nowPlaying,
    });
    expect(pick(await screenOf(owner, viaSocket.screenId))).toEqual(pick(await screenOf(owner, viaHttp.screenId)));
    expect(pick(await screenOf(owner, viaSocket.screenId))).toMatchObject({
      online: true,
      nowPlaying: { fileId, page: 1 },
    });
    const healthSocket = await healthItem(owner, viaSocket.screenId);
    const healthHttp = await healthItem(owner, viaHttp.screenId);
    expect(healthSocket.shows).toEqual(healthHttp.shows);
    expect(healthSocket.shows).toMatchObject({ kind: 'page', fileId });
  });

  it('refuses what HTTP refuses with the same status and body: a bad body, a report of a stranger’s file', async () => {
    const owner = member();
    const stranger = member();
    const fileId = await announcer(a).file(owner.userId, 1, Date.now() - 60_000);
    const foreign = await announcer(a).file(stranger.userId, 1, Date.now() - 60_000);
    const device = await displayGiven(a, owner, fileId);
    await eventsHandled(b);
    for (const [path, type, body] of [
      ['/api/screens/device/heartbeat', 'heartbeat', { appVersion: 5 }],
      ['/api/screens/device/heartbeat', 'heartbeat', beatBody(foreign)],
      ['/api/screens/device/plays', 'plays', { plays: [] }],
      ['/api/screens/device/plays', 'plays', undefined],
    ] as const) {
      const http = await overHttp(device, path, body);
      const socket = await overSocket(device, type, body);
      expect(http.status, JSON.stringify(http.body)).toBeGreaterThanOrEqual(400);
      expect(socket, `${type} ${JSON.stringify(body)}`).toEqual(http);
    }
    expect((await overSocket(device, 'heartbeat', beatBody(foreign))).body.code).toBe('REPORTED_CONTENT_NOT_ALLOWED');
    // an unknown call, an identity that is no device's: the HTTP path's 404 and 401 bodies
    const unknown = JSON.parse(await rpc('nonsense', signDeviceIdentityHeader(device, secret), '{}'));
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const forged = JSON.parse(await rpc('heartbeat', 'forged.header', '{}'));
    expect(forged).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('counts a play batch once however often it is sent, over either path, and answers as HTTP does', async () => {
    const owner = member();
    const fileId = await announcer(a).file(owner.userId, 2, Date.now() - 3_600_000);
    // given the file ten minutes ago (on the service's clock), so the plays of five minutes ago were its to play
    a.clock.offsetMs = -600_000;
    let device: Device;
    try {
      device = await displayGiven(a, owner, fileId);
    } finally {
      a.clock.offsetMs = 0;
    }
    await eventsHandled(b);
    const plays = [0, 1].map((i) => ({
      id: randomUUID(),
      fileId,
      page: 1,
      startedAt: new Date(Date.now() - 300_000 + i * 15_000).toISOString(),
      seconds: 10,
    }));
    const first = await overSocket(device, 'plays', { plays });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body, JSON.stringify(first.body)).toMatchObject({ accepted: 2, duplicates: 0 });
    // the reply lost with its socket: the same batch sent again on the next one, and over HTTP
    const again = await overSocket(device, 'plays', { plays });
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 2 });
    const http = await overHttp(device, '/api/screens/device/plays', { plays });
    expect(again).toEqual(http);
  });

  it("gives the manifest's version as the HTTP ETag, which answers 304, and the HTTP body with it", async () => {
    const owner = member();
    const { device } = await pairDisplay(a, owner);
    await eventsHandled(b);
    const socket = await overSocket(device, 'manifest', undefined);
    expect(socket.status).toBe(200);
    const version = socket.body.version as string;
    const me = await call(a, { device }, 'GET', '/api/screens/device/me');
    expect(me.headers.get('etag')).toBe(version);
    // the same bytes (the gateway answers the display's read with them)
    expect(socket.body.manifest).toBe(me.text);
    const same = await call(a, { device }, 'GET', '/api/screens/device/me', undefined, {
      'if-none-match': version,
      'cache-control': 'max-age=0',
    });
    expect(same.status).toBe(304);
    // a change of what it plays: another version
    await ok(a, owner, 'PUT', `/api/screens/${device.screenId}`, { name: 'Renamed' });
    await eventsHandled(b);
    await eventually(async () => {
      const after = await overSocket(device, 'manifest', undefined);
      return after.body.version !== version ? true : undefined;
    });
  });

  it('refuses a revoked display on either instance, with the HTTP 401; the other instance answers alone', async () => {
    const owner = member();
    const { device, screenId } = await pairDisplay(a, owner);
    const other = await pairDisplay(a, owner);
    await eventsHandled(b);
    expect((await overSocket(device, 'heartbeat', beatBody('f', { nowPlaying: null, shows: undefined }))).status).toBe(
      200,
    );
    await ok(a, owner, 'DELETE', `/api/screens/${screenId}`);
    await eventsHandled(b);
    // every call, whichever instance takes it (several, so both are asked), is refused as HTTP refuses it
    const http = await overHttp(
      device,
      '/api/screens/device/heartbeat',
      beatBody('f', { nowPlaying: null, shows: undefined }),
    );
    expect(http.status).toBe(401);
    for (let i = 0; i < 6; i++) {
      expect(await overSocket(device, 'heartbeat', beatBody('f', { nowPlaying: null, shows: undefined }))).toEqual(
        http,
      );
    }
    // one instance stops: the queue group's other one answers every call
    await b.close();
    for (let i = 0; i < 4; i++) {
      const res = await overSocket(other.device, 'heartbeat', beatBody('f', { nowPlaying: null, shows: undefined }));
      expect(res.status).toBe(200);
    }
    b = await startReplica(a);
  });
});

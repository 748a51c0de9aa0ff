// The display's socket at the gateway (docs/device-socket.md), two gateways on the real NATS: the upgrade's checks,
// calls relayed over core NATS to a screens stand-in answering with the kit's serveDeviceRpc (the code the screens
// service answers with; services/screens/test/device-socket.test.ts runs the real one), the manifest pushed after a
// change, watched events, the revocation closing the socket on both gateways, a dropped socket's call sent again.
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  createEvent,
  DEVICE_SOCKET_CLOSE,
  DEVICE_SOCKET_PATH,
  DeviceSocketDown,
  type EventData,
  type Subject,
} from '@pagecast/contracts';
import { AppError, conditionalAnswer, createLogger, DEVICE_READ_QUEUE, serveDeviceRpc } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Gateway } from '../src/server';
import {
  closeServer,
  createDeviceKeys,
  createKeys,
  listen,
  startEchoService,
  startFakeAccount,
  startGateway,
  waitFor,
} from './support';

const prefix = `test-${randomUUID().slice(0, 8)}.device`;
const readPrefix = `test-${randomUUID().slice(0, 8)}.files`;
const secret = testEnv().INTERNAL_SECRET;
let nc: NatsConnection;
let jwks: { url: string; close(): Promise<void> };
let signDevice: (d: Device) => Promise<string>;
type Started = { gateway: Gateway; url: string; internalUrl: string };
const gateways: Started[] = [];
let closeOthers: () => Promise<void>;
let responder: ReturnType<typeof serveDeviceRpc>;
let reader: ReturnType<typeof serveDeviceRpc>;
let baseEnv: Record<string, string>;

interface Device {
  deviceId: string;
  screenId: string;
  ownerId: string;
}

/** The screens stand-in's state: each screen's manifest version, the calls it saw, the play records it counted. */
const versions = new Map<string, string>();
/** screens whose stand-in gives the manifest's text with its version, as screens does */
const manifests = new Map<string, string>();
const seen: Array<{ type: string; device: Device; body: unknown }> = [];
const counted = new Set<string>();
const revokedScreens = new Set<string>();
/** screens whose manifest the stand-in does not give, this many times more (busy) */
const busyScreens = new Map<string, number>();
let holdPlays: Promise<void> | undefined;

async function startJwks() {
  const deviceKeys = await createDeviceKeys();
  signDevice = deviceKeys.signDevice;
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => res.json({ keys: [deviceKeys.jwk] }));
  const { server, url } = await listen(app);
  return { url, close: () => closeServer(server) };
}

beforeAll(async () => {
  nc = await connect({ servers: testEnv().NATS_URL });
  jwks = await startJwks();
  const keys = await createKeys();
  const account = await startFakeAccount(keys);
  const echo = await startEchoService('echo');
  closeOthers = async () => {
    await Promise.all([account.close(), echo.close(), jwks.close()]);
  };
  const strip = ({ deviceId, screenId, ownerId }: Device) => ({ deviceId, screenId, ownerId });
  responder = serveDeviceRpc(nc, {
    secret,
    prefix,
    logger: createLogger('screens-stand-in', 'silent'),
    handlers: {
      manifest: (device) => {
        if (revokedScreens.has(device.screenId)) throw new AppError('UNAUTHORIZED');
        const busy = busyScreens.get(device.screenId) ?? 0;
        if (busy > 0) {
          busyScreens.set(device.screenId, busy - 1);
          seen.push({ type: 'manifest-busy', device: strip(device), body: undefined });
          throw new AppError('SERVICE_UNAVAILABLE');
        }
        seen.push({ type: 'manifest', device: strip(device), body: undefined });
        const version = versions.get(device.screenId) ?? 'W/"v0"';
        const manifest = manifests.get(device.screenId);
        return { body: manifest === undefined ? { version } : { version, manifest: `${manifest}:${version}` } };
      },
      heartbeat: (device, body) => {
        seen.push({ type: 'heartbeat', device: strip(device), body });
        if (!body || typeof body !== 'object') throw new AppError('VALIDATION', { issues: [] });
        return { body: { ok: true } };
      },
      plays: async (device, body) => {
        await holdPlays;
        seen.push({ type: 'plays', device: strip(device), body });
        const ids = (body as { plays: Array<{ id: string }> }).plays.map((p) => p.id);
        const fresh = ids.filter((id) => !counted.has(id));
        for (const id of fresh) counted.add(id);
        return { body: { accepted: fresh.length, duplicates: ids.length - fresh.length } };
      },
    },
  });
  // the file-conversion stand-in: content reads, answered with the kit's conditionalAnswer as the service answers
  reader = serveDeviceRpc(nc, {
    secret,
    prefix: readPrefix,
    queue: DEVICE_READ_QUEUE,
    logger: createLogger('files-stand-in', 'silent'),
    handlers: {
      playlist: (device, body) => {
        seen.push({ type: 'playlist', device: strip(device), body });
        const { id, etag } = body as { id: string; etag?: string };
        if (id === 'not-theirs') throw new AppError('PLAYLIST_NOT_FOUND');
        return conditionalAnswer([{ playlistId: id, screenId: device.screenId }], etag);
      },
    },
  });
  baseEnv = {
    ACCOUNT_URL: account.url,
    FILES_URL: echo.url,
    MARKETPLACE_URL: echo.url,
    BILLING_URL: echo.url,
    SCREENS_URL: jwks.url,
    DEVICE_RPC_SUBJECT_PREFIX: prefix,
    DEVICE_READ_SUBJECT_PREFIX: readPrefix,
    RATE_LIMIT_API_MAX: '20',
  };
  gateways.push(await startGateway(baseEnv), await startGateway(baseEnv));
});

afterAll(async () => {
  for (const g of gateways) await g.gateway.close();
  await responder?.stop();
  await reader?.stop();
  await nc?.close();
  await closeOthers?.();
});

const newDevice = async (screenId: string = randomUUID()) => {
  const device = { deviceId: randomUUID(), screenId, ownerId: `u-${randomUUID()}` };
  return { device, cookie: `pc_device=${await signDevice(device)}` };
};

async function publish<S extends Subject>(type: S, data: EventData<S>) {
  const event = createEvent(type, data);
  await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
}

/** What screens publishes when a screen's assignment changes (nothing it plays named here). */
const screenChanged = (screenId: string, ownerId: string) =>
  publish('screens.screen.changed.v1', {
    screenId,
    ownerId,
    changedAt: new Date().toISOString(),
    playlistIds: [],
    fileIds: [],
  });
/** A display's socket as a test drives it: every frame received (checked against the contract), and its close. */
async function openSocket(base: string, cookie: string | undefined, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${DEVICE_SOCKET_PATH}`, {
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    perMessageDeflate: false,
  });
  const frames: DeviceSocketDown[] = [];
  let closed: { code: number; reason: string; at: number } | undefined;
  ws.on('message', (data) => frames.push(DeviceSocketDown.parse(JSON.parse(String(data)))));
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason), at: Date.now() };
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode })),
    );
    ws.once('error', reject);
  });
  const next = <T extends DeviceSocketDown['type']>(
    type: T,
    pred: (f: Extract<DeviceSocketDown, { type: T }>) => boolean = () => true,
  ) =>
    waitFor(async () =>
      frames.find((f): f is Extract<DeviceSocketDown, { type: T }> => f.type === type && pred(f as never)),
    );
  return {
    ws,
    frames,
    next,
    send: (frame: unknown) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    reply: (ref: number) => next('reply', (f) => f.ref === ref),
    closed: () => waitFor(async () => closed),
  };
}

const refusal = (base: string, cookie?: string, headers: Record<string, string> = {}) =>
  openSocket(base, cookie, headers).then(
    () => 101,
    (err: { status?: number }) => err.status,
  );

const heartbeatBody = { appVersion: '1.0.0', screenSize: { width: 1920, height: 1080 }, nowPlaying: null };
const play = () => ({ id: randomUUID(), fileId: 'f1', page: 1, startedAt: new Date().toISOString(), seconds: 10 });

describe("the display's socket at the gateway", () => {
  it('opens only with a valid device cookie from our own origin; a plain GET is told to upgrade', async () => {
    const [{ url }] = gateways as [Started];
    expect(await refusal(url)).toBe(401);
    expect(await refusal(url, 'pc_device=not-a-token')).toBe(401);
    const { cookie } = await newDevice();
    expect(await refusal(url, cookie, { origin: 'https://evil.example' })).toBe(403);
    expect(await refusal(url, cookie, { origin: url })).toBe(101);
    const plain = await fetch(`${url}${DEVICE_SOCKET_PATH}`, { headers: { cookie } });
    expect(plain.status).toBe(426);
    expect((await plain.json()).code).toBe('MALFORMED_REQUEST');
    // each refusal counted by its code on the internal listener (at least these: other tests refuse too)
    const [{ internalUrl }] = gateways as [Started];
    const metrics = await (await fetch(`${internalUrl}/metrics`)).text();
    const refused = (code: string) =>
      Number(
        new RegExp(`^gateway_device_socket_refused_total\\{[^}]*code="${code}"[^}]*\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1],
      );
    expect(refused('UNAUTHORIZED')).toBeGreaterThanOrEqual(2);
    expect(refused('CROSS_SITE_REQUEST')).toBeGreaterThanOrEqual(1);
  });

  it('refuses an address whose upgrades keep failing, before verifying, for the rest of its window (429)', async () => {
    const [{ url }] = gateways as [Started];
    // two addresses behind the trusted proxy (loopback, TRUST_PROXY's default), as the HTTP path reads them
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 20; i++) expect(await refusal(url, 'pc_device=forged', from('203.0.113.7'))).toBe(401);
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${DEVICE_SOCKET_PATH}`, {
      headers: { cookie: 'pc_device=forged', ...from('203.0.113.7') },
    });
    const refused = await new Promise<{ status?: number; retryAfter?: string; body: string }>((resolve) =>
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += String(c);
        });
        res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], body }));
      }),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const body = JSON.parse(refused.body) as { code: string; details: { retryAfterSeconds: number } };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    // a valid display at that address waits too; one at another address is let in
    const { cookie } = await newDevice();
    expect(await refusal(url, cookie, from('203.0.113.7'))).toBe(429);
    expect(await refusal(url, cookie, from('203.0.113.8'))).toBe(101);
  });

  it('answers hello with the version, relays calls with the verified identity and answers by ref', async () => {
    const [{ url }] = gateways as [Started];
    const { device, cookie } = await newDevice();
    versions.set(device.screenId, 'W/"a1"');
    const s = await openSocket(url, cookie);
    s.send({ type: 'hello', version: null });
    expect(await s.next('manifest')).toEqual({ type: 'manifest', version: 'W/"a1"' });
    s.send({ type: 'heartbeat', ref: 7, body: heartbeatBody });
    expect(await s.reply(7)).toEqual({ type: 'reply', ref: 7, status: 200, body: { ok: true } });
    expect(seen.filter((c) => c.device.deviceId === device.deviceId && c.type === 'heartbeat')).toEqual([
      { type: 'heartbeat', device, body: heartbeatBody },
    ]);
    // an error answer is the service's status and body, relayed as it came
    s.send({ type: 'heartbeat', ref: 8, body: null });
    expect(await s.reply(8)).toMatchObject({ status: 400, body: { code: 'VALIDATION', issues: [] } });
    s.send({ type: 'ping' });
    await s.next('pong');
    // a call the gateway does not relay: 404, the socket stays
    s.send({ type: 'nonsense', ref: 9, body: {} });
    expect(await s.reply(9)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    s.send({ type: 'heartbeat', ref: 10, body: heartbeatBody });
    expect((await s.reply(10)).status).toBe(200);
    // counted on the internal listener: the sockets open, each relayed call's time by type and status
    const [{ internalUrl }] = gateways as [Started];
    const metrics = await (await fetch(`${internalUrl}/metrics`)).text();
    expect(Number(/^gateway_device_sockets\{[^}]*\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(
      /^gateway_device_socket_call_seconds_count\{[^}]*type="heartbeat",status="200"[^}]*\} [1-9]/m,
    );
    expect(metrics).toMatch(
      /^gateway_device_socket_call_seconds_count\{[^}]*type="heartbeat",status="400"[^}]*\} [1-9]/m,
    );
    // a call whose first bytes read as one (as the page writes it) is relayed unparsed: a body that is not JSON is
    // refused by the service's parse (400), and the socket stays
    s.send('{"type":"heartbeat","ref":11,"body":{not json');
    expect(await s.reply(11)).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    // the same call with its members in another order is read whole, and relayed as before
    s.send(JSON.stringify({ ref: 12, body: heartbeatBody, type: 'heartbeat' }));
    expect(await s.reply(12)).toMatchObject({ status: 200, body: { ok: true } });
    // a frame that is not JSON: an error reply, then close 4400
    s.send('{not json');
    expect(await s.next('reply', (f) => f.status === 400 && f.ref === null)).toBeTruthy();
    expect(await s.closed()).toMatchObject({ code: DEVICE_SOCKET_CLOSE.badFrame, reason: 'bad frame' });
  });

  it("relays content reads to file-conversion with the display's identity: body, ETag and 304 as it answered", async () => {
    const [{ url }] = gateways as [Started];
    const { device, cookie } = await newDevice();
    const s = await openSocket(url, cookie);
    s.send({ type: 'hello', version: null });
    await s.next('manifest');
    s.send({ type: 'playlist', ref: 1, body: { id: 'p1' } });
    const first = await s.reply(1);
    expect(first).toMatchObject({ status: 200, body: [{ playlistId: 'p1', screenId: device.screenId }] });
    expect(first.etag).toMatch(/^W\/"/);
    expect(seen.filter((c) => c.device.deviceId === device.deviceId && c.type === 'playlist')).toEqual([
      { type: 'playlist', device, body: { id: 'p1' } },
    ]);
    s.send({ type: 'playlist', ref: 2, body: { id: 'p1', etag: first.etag } });
    expect(await s.reply(2)).toEqual({ type: 'reply', ref: 2, status: 304, etag: first.etag, body: null });
    // the service's refusal, as it answered; a read type it does not serve: its 404
    s.send({ type: 'playlist', ref: 3, body: { id: 'not-theirs' } });
    expect(await s.reply(3)).toMatchObject({ status: 404, body: { code: 'PLAYLIST_NOT_FOUND' } });
    s.send({ type: 'pages', ref: 4, body: { id: 'f1' } });
    expect(await s.reply(4)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    // not to screens: its stand-in saw none of these
    expect(seen.some((c) => c.device.deviceId === device.deviceId && c.type === 'pages')).toBe(false);
    s.ws.close();
  });

  it('limits calls per display as the HTTP path does (429 with retryAfterSeconds)', async () => {
    const [{ url }] = gateways as [Started];
    const { cookie } = await newDevice();
    const s = await openSocket(url, cookie);
    for (let ref = 1; ref <= 20; ref++) {
      s.send({ type: 'heartbeat', ref, body: heartbeatBody });
      expect((await s.reply(ref)).status).toBe(200);
    }
    s.send({ type: 'heartbeat', ref: 21, body: heartbeatBody });
    const last = await s.reply(21);
    expect(last).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((last.body as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(0);
    s.ws.close();
  });

  it("pushes the new manifest version to every display of a changed screen, on both gateways, and no other's", async () => {
    const [a, b] = gateways as [Started, Started];
    const screenId = randomUUID();
    versions.set(screenId, 'W/"one"');
    const one = await newDevice(screenId);
    const two = await newDevice(screenId);
    const other = await newDevice();
    const sa = await openSocket(a.url, one.cookie);
    const sb = await openSocket(b.url, two.cookie);
    const so = await openSocket(a.url, other.cookie);
    for (const s of [sa, sb, so]) s.send({ type: 'hello', version: 'W/"one"' });
    for (const s of [sa, sb, so]) await s.next('manifest');
    versions.set(screenId, 'W/"two"');
    await screenChanged(screenId, one.device.ownerId);
    for (const s of [sa, sb]) expect(await s.next('manifest', (f) => f.version === 'W/"two"')).toBeTruthy();
    // a fleet change names its screens: told the same way
    versions.set(screenId, 'W/"three"');
    await publish('screens.fleet.changed.v1', {
      changeId: randomUUID(),
      ownerId: one.device.ownerId,
      changedAt: new Date().toISOString(),
      kind: 'takeover-started',
      screenIds: [randomUUID(), screenId],
      content: { playlistIds: [], fileIds: [] },
    });
    for (const s of [sa, sb]) expect(await s.next('manifest', (f) => f.version === 'W/"three"')).toBeTruthy();
    expect(so.frames.filter((f) => f.type === 'manifest')).toHaveLength(1);
    // a hello after the change is answered by the gateway from what it was told, without asking screens
    const asked = seen.filter((c) => c.type === 'manifest' && c.device.screenId === screenId).length;
    const again = await openSocket(a.url, one.cookie);
    again.send({ type: 'hello', version: 'W/"three"' });
    expect(await again.next('manifest')).toEqual({ type: 'manifest', version: 'W/"three"' });
    expect(seen.filter((c) => c.type === 'manifest' && c.device.screenId === screenId)).toHaveLength(asked);
    // and so is the manifest read not modified (screens' HTTP stand-in here answers no manifest: it was not asked)
    const me = (etag: string) =>
      fetch(`${a.url}/api/screens/device/me`, {
        headers: { cookie: one.cookie, 'if-none-match': etag, 'cache-control': 'max-age=0' },
      });
    const notModified = await me('W/"three"');
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('W/"three"');
    expect((await me('W/"two"')).status).not.toBe(304);
    for (const s of [sa, sb, so, again]) s.ws.close();
  });

  it("answers the display's manifest read after a push from what screens gave that device, once, until a change", async () => {
    const [a] = gateways as [Started];
    const screenId = randomUUID();
    versions.set(screenId, 'W/"m1"');
    manifests.set(screenId, '{"screenId":"m"}');
    const one = await newDevice(screenId);
    const two = await newDevice(screenId);
    const sa = await openSocket(a.url, one.cookie);
    sa.send({ type: 'hello', version: 'W/"m1"' });
    await sa.next('manifest');
    // screens' HTTP stand-in here serves no manifest (404): a read it answered would not be a 200
    const me = (cookie: string, etag: string) =>
      fetch(`${a.url}/api/screens/device/me`, {
        headers: { cookie, 'if-none-match': etag, 'cache-control': 'max-age=0' },
      });
    // the display held this version: nothing kept to read
    expect((await me(one.cookie, 'W/"m0"')).status).not.toBe(200);
    versions.set(screenId, 'W/"m2"');
    await screenChanged(screenId, one.device.ownerId);
    expect(await sa.next('manifest', (f) => f.version === 'W/"m2"')).toBeTruthy();
    // another device of the screen is not given what screens gave this one
    expect((await me(two.cookie, 'W/"m1"')).status).not.toBe(200);
    const read = await me(one.cookie, 'W/"m1"');
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('W/"m2"');
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await read.text()).toBe('{"screenId":"m"}:W/"m2"');
    // once per display of the screen: the next read goes to screens, and the version alone still answers 304
    expect((await me(one.cookie, 'W/"m1"')).status).not.toBe(200);
    expect((await me(one.cookie, 'W/"m2"')).status).toBe(304);
    // a display that says hello with a version the gateway knows gets it without a trip (nothing kept); the next
    // change's check gives the new version's text, for both of the screen's sockets
    versions.set(screenId, 'W/"m3"');
    const again = await openSocket(a.url, one.cookie);
    again.send({ type: 'hello', version: null });
    expect(await again.next('manifest')).toEqual({ type: 'manifest', version: 'W/"m2"' });
    await screenChanged(screenId, one.device.ownerId);
    await sa.next('manifest', (f) => f.version === 'W/"m3"');
    const third = await me(one.cookie, 'W/"m2"');
    expect(third.status).toBe(200);
    expect(await third.text()).toBe('{"screenId":"m"}:W/"m3"');
    for (const s of [sa, again]) s.ws.close();
  });

  it('sends the manifest text screens gave with its version to the display it was asked for, no other', async () => {
    const [a] = gateways as [Started];
    const screenId = randomUUID();
    versions.set(screenId, 'W/"t1"');
    manifests.set(screenId, '{"screenId":"t"}');
    const one = await newDevice(screenId);
    const two = await newDevice(screenId);
    const s1 = await openSocket(a.url, one.cookie);
    s1.send({ type: 'hello', version: null });
    // the read's body as a string, whose ETag is the version: the display reads nothing
    expect(await s1.next('manifest')).toEqual({
      type: 'manifest',
      version: 'W/"t1"',
      manifest: '{"screenId":"t"}:W/"t1"',
    });
    // a display holding the current version is told the version alone
    const s2 = await openSocket(a.url, two.cookie);
    s2.send({ type: 'hello', version: 'W/"t1"' });
    expect(await s2.next('manifest')).toEqual({ type: 'manifest', version: 'W/"t1"' });
    // a change: the screen's displays get the new version; the text only the one whose device screens was asked with
    versions.set(screenId, 'W/"t2"');
    await screenChanged(screenId, one.device.ownerId);
    const pushed = await Promise.all([s1, s2].map((s) => s.next('manifest', (f) => f.version === 'W/"t2"')));
    const asked = seen.filter((c) => c.type === 'manifest' && c.device.screenId === screenId).at(-1)?.device;
    const [f1, f2] = pushed as Array<{ manifest?: string }>;
    const withText = asked?.deviceId === one.device.deviceId ? [f1, f2] : [f2, f1];
    expect(withText[0]?.manifest).toBe('{"screenId":"t"}:W/"t2"');
    expect(withText[1]?.manifest).toBeUndefined();
    for (const s of [s1, s2]) s.ws.close();
  });

  it('forwards the events of the playlists and files a display watches, ids only', async () => {
    const [{ url }] = gateways as [Started];
    const { cookie } = await newDevice();
    const s = await openSocket(url, cookie);
    const playlistId = randomUUID();
    s.send({ type: 'watch', playlists: [playlistId], files: [] });
    s.send({ type: 'ping' });
    await s.next('pong');
    await publish('files.playlist.saved.v1', {
      playlistId: randomUUID(),
      ownerId: 'u-x',
      name: 'other',
      fileIds: [],
      updatedAt: new Date().toISOString(),
    });
    await publish('files.playlist.saved.v1', {
      playlistId,
      ownerId: 'u-x',
      name: 'ロビー',
      fileIds: ['f1'],
      updatedAt: new Date().toISOString(),
    });
    const event = await s.next('event');
    expect(event.event).toMatchObject({ type: 'files.playlist.saved.v1', data: { playlistId } });
    expect(s.frames.filter((f) => f.type === 'event')).toHaveLength(1);
    // too many ids: refused as a bad frame
    s.send({ type: 'watch', playlists: Array.from({ length: 51 }, () => randomUUID()), files: [] });
    expect(await s.closed()).toMatchObject({ code: DEVICE_SOCKET_CLOSE.badFrame });
  });

  it('closes a revoked display’s sockets on both gateways within 1 s, and refuses its next upgrade', async () => {
    const [a, b] = gateways as [Started, Started];
    const { device, cookie } = await newDevice();
    const sa = await openSocket(a.url, cookie);
    const sb = await openSocket(b.url, cookie);
    for (const s of [sa, sb]) s.send({ type: 'hello', version: null });
    for (const s of [sa, sb]) await s.next('manifest');
    const at = Date.now();
    await publish('screens.screen.revoked.v1', {
      screenId: device.screenId,
      deviceId: device.deviceId,
      ownerId: device.ownerId,
      revokedAt: new Date().toISOString(),
    });
    for (const s of [sa, sb]) {
      const closed = await s.closed();
      expect(closed).toMatchObject({ code: DEVICE_SOCKET_CLOSE.revoked, reason: 'revoked' });
      expect(closed.at - at).toBeLessThan(1000);
    }
    expect(await refusal(a.url, cookie)).toBe(401);
    expect(await refusal(b.url, cookie)).toBe(401);
  });

  it('closes a socket whose screen the service no longer knows for this display (401 at hello)', async () => {
    const [{ url }] = gateways as [Started];
    const { device, cookie } = await newDevice();
    revokedScreens.add(device.screenId);
    const s = await openSocket(url, cookie);
    s.send({ type: 'hello', version: null });
    expect(await s.closed()).toMatchObject({ code: DEVICE_SOCKET_CLOSE.revoked });
  });

  it('keeps a socket whose hello screens could not answer and asks again, backing off, until it answers', async () => {
    const [{ url }] = gateways as [Started];
    const { device, cookie } = await newDevice();
    versions.set(device.screenId, 'W/"busy1"');
    busyScreens.set(device.screenId, 2);
    const s = await openSocket(url, cookie);
    const opened = Date.now();
    s.send({ type: 'hello', version: null });
    expect(await s.next('manifest')).toEqual({ type: 'manifest', version: 'W/"busy1"' });
    // asked three times on the one socket: two refusals, then the version, after waits of 0.5-1 s and 1-2 s
    const asked = seen.filter((c) => c.device.deviceId === device.deviceId && c.type.startsWith('manifest'));
    expect(asked.map((c) => c.type)).toEqual(['manifest-busy', 'manifest-busy', 'manifest']);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(1_400);
    expect(s.frames.filter((f) => f.type === 'manifest')).toHaveLength(1);
    s.send({ type: 'heartbeat', ref: 1, body: heartbeatBody });
    expect((await s.reply(1)).status).toBe(200);
    s.ws.close();
  });

  it('a play batch whose reply was lost with the socket is sent again on a new one and counted once', async () => {
    const [a, b] = gateways as [Started, Started];
    const { device, cookie } = await newDevice();
    const batch = { plays: [play(), play()] };
    let release!: () => void;
    holdPlays = new Promise<void>((r) => {
      release = r;
    });
    const first = await openSocket(a.url, cookie);
    first.send({ type: 'plays', ref: 1, body: batch });
    await waitFor(async () => (a.gateway.sockets.counts.relayed > 0 ? true : undefined));
    first.ws.terminate(); // the network drops: no reply reaches the display
    release();
    holdPlays = undefined;
    await waitFor(async () =>
      seen.some((c) => c.type === 'plays' && c.device.deviceId === device.deviceId) ? true : undefined,
    );
    const second = await openSocket(b.url, cookie);
    second.send({ type: 'plays', ref: 1, body: batch });
    expect(await second.reply(1)).toMatchObject({ status: 200, body: { accepted: 0, duplicates: 2 } });
    expect(batch.plays.every((p) => counted.has(p.id))).toBe(true);
    second.ws.close();
  });

  it('tells its displays to reconnect (1012) when a gateway stops', async () => {
    const third = await startGateway(baseEnv);
    const { cookie } = await newDevice();
    const s = await openSocket(third.url, cookie);
    expect(third.gateway.sockets.size).toBe(1);
    await third.gateway.close();
    expect(await s.closed()).toMatchObject({ code: DEVICE_SOCKET_CLOSE.restart });
  });
});

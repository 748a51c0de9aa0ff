// Paired displays at the gateway, against the real NATS: a device cookie is verified against the
// screens service's JWKS, passed on as a device identity, never as a member, limited per device rather than per
// address, refused once its revocation arrives over NATS, and its live stream carries its own screen's changes.
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createEvent, type EventData, findRoute, IDENTITY_HEADER, type Subject } from '@pagecast/contracts';
import { verifyAnyIdentityHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/server';
import { sendAnswer } from './contract';
import {
  closeServer,
  cookieHeader,
  createDeviceKeys,
  createKeys,
  gatewayConfig,
  type Keys,
  listen,
  type Seen,
  startEchoService,
  startFakeAccount,
  waitFor,
} from './support';

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let screens: { url: string; seen: Seen[]; close(): Promise<void> };
let nc: NatsConnection;
let gateway: Gateway;
let url: string;
let signDevice: (d: { deviceId: string; screenId: string; ownerId: string }) => Promise<string>;
const secret = testEnv().INTERNAL_SECRET;

/** GET /api/screens/device/me as screens answers it (DeviceScreen) */
const deviceScreen = {
  screenId: randomUUID(),
  name: 'ロビー',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'none' },
  heartbeatSeconds: 60,
};

/** GET /api/screens/health as screens answers it (FleetHealth), for a member with no screens */
const fleetHealth = {
  counts: { total: 0, online: 0, offline: 0, closed: 0, broken: 0, frozen: 0, wrong: 0, ok: 0 },
  items: [],
  nextCursor: null,
};

/** Screens stand-in: its JWKS, a record of what reaches it, and the device routes' answers. */
async function startFakeScreens() {
  const deviceKeys = await createDeviceKeys();
  signDevice = deviceKeys.signDevice;
  const seen: Seen[] = [];
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => res.json({ keys: [deviceKeys.jwk] }));
  app.use((req, res) => {
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers, bytes: 0, sha256: '' });
    req.resume();
    // what screens answers on the routes these tests call, checked against the contracts (contract.ts)
    const route = findRoute(req.method, req.path)?.id ?? 'unknown';
    req.on('end', () => {
      if (route === 'deviceScreen') sendAnswer(res, route, 200, deviceScreen);
      else if (route === 'deviceHeartbeat') sendAnswer(res, route, 200, { ok: true });
      else if (route === 'fleetHealth') sendAnswer(res, route, 200, fleetHealth);
      else if (route === 'screenIncidents') sendAnswer(res, route, 200, []);
      else sendAnswer(res, route, 404, { code: 'NOT_FOUND', message: 'Not found' });
    });
  });
  const { server, url } = await listen(app);
  return { url, seen, close: () => closeServer(server) };
}

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  echo = await startEchoService('echo');
  screens = await startFakeScreens();
  nc = await connect({ servers: testEnv().NATS_URL });
  gateway = createGateway(
    gatewayConfig({
      ACCOUNT_URL: account.url,
      FILES_URL: echo.url,
      MARKETPLACE_URL: echo.url,
      BILLING_URL: echo.url,
      SCREENS_URL: screens.url,
      RATE_LIMIT_API_MAX: '8',
    }),
  );
  ({ url } = await gateway.start(0));
});

afterAll(async () => {
  await gateway?.close();
  await nc?.close();
  await Promise.all([account?.close(), echo?.close(), screens?.close()]);
});

const newDevice = async () => {
  const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: `u-${randomUUID()}` };
  return { device, cookie: `pc_device=${await signDevice(device)}` };
};

async function publish<S extends Subject>(type: S, data: EventData<S>) {
  const event = createEvent(type, data);
  await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
}

describe('paired displays at the gateway', () => {
  it('passes a device token on as a device identity to the device routes', async () => {
    const { device, cookie } = await newDevice();
    const res = await fetch(`${url}/api/screens/device/me`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const upstream = screens.seen.at(-1);
    const identity = verifyAnyIdentityHeader(upstream?.headers[IDENTITY_HEADER] as string, secret);
    expect(identity).toMatchObject({ kind: 'device', ...device });
    // no cookie, or a token signed by anyone else (here: account's session key), is no device
    expect((await fetch(`${url}/api/screens/device/me`)).status).toBe(401);
    const foreign = await keys.sign({ sub: device.deviceId, sid: 'x' });
    const refused = await fetch(`${url}/api/screens/device/me`, { headers: { cookie: `pc_device=${foreign}` } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toMatch(/^pc_device=; /);
  });

  it('never lets a device act as a member', async () => {
    const { cookie } = await newDevice();
    const before = echo.seen.length + screens.seen.length;
    for (const [method, path] of [
      ['GET', '/api/screens'],
      ['DELETE', '/api/screens/abc'],
      ['GET', '/api/files'],
      ['POST', '/api/playlists'],
      ['GET', '/api/points/history'],
    ]) {
      const res = await fetch(`${url}${path}`, { method, headers: { cookie } });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).code).toBe('DEVICE_NOT_ALLOWED');
    }
    expect(echo.seen.length + screens.seen.length).toBe(before);
  });

  it("forwards a member's fleet health and a screen's incident log to screens, never for a display", async () => {
    const userId = `u-${randomUUID()}`;
    const member = cookieHeader(await keys.sign({ sub: userId, sid: `s-${randomUUID()}` }));
    const health = await fetch(`${url}/api/screens/health?state=offline&limit=20`, { headers: { cookie: member } });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual(fleetHealth);
    const upstream = screens.seen.at(-1);
    expect(upstream?.url).toBe('/api/screens/health?state=offline&limit=20');
    expect(verifyAnyIdentityHeader(upstream?.headers[IDENTITY_HEADER] as string, secret)).toMatchObject({ userId });
    const screenId = randomUUID();
    const incidents = await fetch(`${url}/api/screens/${screenId}/incidents`, { headers: { cookie: member } });
    expect({ status: incidents.status, body: await incidents.json() }).toEqual({ status: 200, body: [] });
    expect(screens.seen.at(-1)?.url).toBe(`/api/screens/${screenId}/incidents`);

    const before = screens.seen.length;
    const { cookie } = await newDevice();
    for (const path of ['/api/screens/health', `/api/screens/${screenId}/incidents`]) {
      const asDevice = await fetch(`${url}${path}`, { headers: { cookie } });
      expect({ path, status: asDevice.status, code: (await asDevice.json()).code }).toEqual({
        path,
        status: 403,
        code: 'DEVICE_NOT_ALLOWED',
      });
      expect((await fetch(`${url}${path}`)).status).toBe(401);
    }
    expect(screens.seen.length).toBe(before);
  });

  it('limits displays per device, so many screens behind one address are not throttled together', async () => {
    const a = await newDevice();
    const b = await newDevice();
    const beat = (cookie: string) =>
      fetch(`${url}/api/screens/device/heartbeat`, { method: 'POST', headers: { cookie } }).then((r) => r.status);
    for (let i = 0; i < 8; i++) expect(await beat(a.cookie)).toBe(200);
    expect(await beat(a.cookie)).toBe(429);
    // same address, another device: its own budget
    for (let i = 0; i < 8; i++) expect(await beat(b.cookie)).toBe(200);
  });

  it('refuses a revoked device within seconds and closes its live stream; the stream carries its screen changes', async () => {
    const { device, cookie } = await newDevice();
    const ctrl = new AbortController();
    const stream = await fetch(`${url}/api/events`, { headers: { cookie }, signal: ctrl.signal });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let ended = false;
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      ended = true;
    })();
    await waitFor(async () => (text.includes('event: ready') ? true : undefined));
    await publish('screens.screen.changed.v1', {
      screenId: randomUUID(),
      ownerId: device.ownerId,
      changedAt: new Date().toISOString(),
      playlistIds: [],
      fileIds: [],
    });
    await publish('screens.screen.changed.v1', {
      screenId: device.screenId,
      ownerId: device.ownerId,
      changedAt: new Date().toISOString(),
      playlistIds: [],
      fileIds: [],
    });
    await waitFor(async () => (text.includes('event: screens.screen.changed.v1') ? true : undefined));
    expect(text.match(/event: screens\.screen\.changed\.v1/g)).toHaveLength(1);
    expect(text).toContain(device.screenId);

    await publish('screens.screen.revoked.v1', {
      screenId: device.screenId,
      deviceId: device.deviceId,
      ownerId: device.ownerId,
      revokedAt: new Date().toISOString(),
    });
    await waitFor(async () => (ended ? true : undefined), 5000);
    await waitFor(async () => {
      const res = await fetch(`${url}/api/screens/device/me`, { headers: { cookie } });
      return res.status === 401 ? true : undefined;
    });
    ctrl.abort();
  });
});

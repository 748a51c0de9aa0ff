// Page images served by the gateway itself (src/media.ts), against a file-conversion stand-in that counts
// what reaches it (access checks, byte fetches, and reads of /media, where file-conversion decides again) and the
// real NATS for revocations and events: one check per (caller, image) for as long as file-conversion allows, one
// byte fetch per image for everyone, no second decision, and nothing served to a stranger, an anonymous caller, a
// revoked session or device, or past a licence's bound.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  createEvent,
  DEVICE_MEDIA_ACCESS_CALL,
  DeviceMediaAccessRequest,
  type EventData,
  IDENTITY_HEADER,
  MediaAccessAnswer,
  type Subject,
} from '@pagecast/contracts';
import { createLogger, serveDeviceRpc, verifyAnyIdentityHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import {
  closeServer,
  cookieHeader,
  createKeys,
  type Keys,
  listen,
  publishRevocation,
  requestBytes,
  signedMember,
  startDeviceKeys,
  startEchoService,
  startFakeAccount,
  startGateway,
  waitFor,
} from './support';
import { fakeAnswer, sendAnswer } from './contract';

const secret = testEnv().INTERNAL_SECRET;
type Grant = { access: 'owner' | 'licence' | null; maxAgeMs: number };

/**
 * file-conversion stand-in: the internal access check (over HTTP, and a display's over the display-read relay), the
 * image bytes and /media (which decides), each call recorded.
 */
async function startFakeFiles() {
  const images = new Map<string, Buffer>();
  /** `${userId or device:<id>}\0${hash}` → the answer of the access check (default: refused, 2 s) */
  const grants = new Map<string, Grant>();
  const checks: string[] = [];
  /** the checks that came over HTTP (a display's go over the relay once the gateway is connected) */
  const httpChecks: string[] = [];
  /** the relay's NATS requests (a batch is one), by subject */
  const relayRequests: string[] = [];
  const fetches: string[] = [];
  /** GET /media/<key>: file-conversion decides there too (its own rule), so the gateway never asks it for bytes */
  const mediaReads: string[] = [];
  const state = { fetchDelayMs: 0 };
  const caller = (req: express.Request) => {
    const identity = verifyAnyIdentityHeader(req.headers[IDENTITY_HEADER] as string | undefined, secret);
    if (!identity) return undefined;
    return 'kind' in identity ? `device:${identity.deviceId}` : identity.userId;
  };
  const app = express();
  const unauthorized = { code: 'UNAUTHORIZED', message: 'Unauthorized' };
  const notFound = { code: 'NOT_FOUND', message: 'Not found' };
  /** the access check, whichever way it came: recorded, and answered as granted */
  const decide = (who: string, key: string): Grant => {
    const hash = key.replace(/\.webp$/, '');
    checks.push(`${who} ${hash}`);
    return grants.get(`${who}\u0000${hash}`) ?? { access: null, maxAgeMs: 2000 };
  };
  app.get('/internal/media-access/:key', (req, res) => {
    const who = caller(req);
    if (!who) return sendAnswer(res, 'files.mediaAccess', 401, unauthorized);
    httpChecks.push(`${who} ${String(req.params.key).replace(/\.webp$/, '')}`);
    sendAnswer(res, 'files.mediaAccess', 200, decide(who, String(req.params.key)));
  });
  // a display's check over the relay, as file-conversion's events/device-reads.ts answers it (the kit's responder)
  const readPrefix = `fake-files-${randomUUID()}.device`;
  const relayNc = await connect({ servers: testEnv().NATS_URL });
  const relay = serveDeviceRpc(relayNc, {
    secret,
    prefix: readPrefix,
    queue: 'fake-files',
    logger: createLogger('files-stand-in', 'silent'),
    handlers: {
      [DEVICE_MEDIA_ACCESS_CALL]: (device, body) => ({
        body: MediaAccessAnswer.parse(decide(`device:${device.deviceId}`, DeviceMediaAccessRequest.parse(body).key)),
      }),
    },
  });
  relayNc.subscribe(`${readPrefix}.*`, { callback: (_err, msg) => void relayRequests.push(msg.subject) });
  app.get('/internal/media/:key', async (req, res) => {
    const who = caller(req);
    if (!who) return sendAnswer(res, 'files.mediaBytes', 401, unauthorized);
    const hash = String(req.params.key).replace(/\.webp$/, '');
    fetches.push(hash);
    await new Promise((r) => setTimeout(r, state.fetchDelayMs));
    const bytes = images.get(hash);
    if (!bytes) return sendAnswer(res, 'files.mediaBytes', 404, notFound);
    sendAnswer(res, 'files.mediaBytes', 200, bytes, { headers: { 'content-type': 'image/webp' } });
  });
  app.get('/media/:key', async (req, res) => {
    const who = caller(req);
    if (!who) return sendAnswer(res, 'getMedia', 401, unauthorized);
    const hash = String(req.params.key).replace(/\.webp$/, '');
    mediaReads.push(`${who} ${hash}`);
    const bytes = images.get(hash);
    if (!bytes) return sendAnswer(res, 'getMedia', 404, notFound);
    sendAnswer(res, 'getMedia', 200, bytes, {
      headers: { 'content-type': 'image/webp', 'cache-control': 'private, max-age=31536000, immutable' },
    });
  });
  // the rest of file-conversion's paths: a probe, as support.ts's echoes
  app.use((_req, res) => void res.json({ service: 'file-conversion' }));
  const { server, url } = await listen(app);
  /** a new image of `size` random bytes, named by its hash as file-conversion names them */
  const addImage = (size = 300_000) => {
    const bytes = randomBytes(size);
    const hash = createHash('sha256').update(bytes).digest('hex');
    images.set(hash, bytes);
    return { hash, bytes, path: `/media/${hash}.webp` };
  };
  /** what the access check answers `who` for `hash` from now on (checked against the contract at once) */
  const grant = (who: string, hash: string, answer: Grant) =>
    grants.set(`${who}\u0000${hash}`, fakeAnswer('files.mediaAccess', 200, answer));
  return {
    url,
    readPrefix,
    checks,
    httpChecks,
    relayRequests,
    fetches,
    mediaReads,
    state,
    addImage,
    grant,
    close: async () => {
      await relay.stop();
      await relayNc.close();
      await closeServer(server);
    },
  };
}

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let files: Awaited<ReturnType<typeof startFakeFiles>>;
let screens: Awaited<ReturnType<typeof startDeviceKeys>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let nc: NatsConnection;
let gw: { gateway: Gateway; url: string; internalUrl: string };
let env: Record<string, string>;
const extra: Gateway[] = [];

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  files = await startFakeFiles();
  screens = await startDeviceKeys();
  echo = await startEchoService('echo');
  nc = await connect({ servers: testEnv().NATS_URL });
  env = {
    ACCOUNT_URL: account.url,
    FILES_URL: files.url,
    DEVICE_READ_SUBJECT_PREFIX: files.readPrefix,
    MARKETPLACE_URL: echo.url,
    BILLING_URL: echo.url,
    SCREENS_URL: screens.url,
  };
  gw = await startGateway(env);
});

afterAll(async () => {
  await Promise.all([gw?.gateway.close(), ...extra.map((g) => g.close())]);
  await nc?.close();
  await Promise.all([account?.close(), files?.close(), screens?.close(), echo?.close()]);
});

const member = () => signedMember(keys);

/** GET (or HEAD) with the body as bytes */
const get = (base: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  requestBytes(`${base}${path}`, headers, method);

async function publish<S extends Subject>(type: S, data: EventData<S>) {
  const event = createEvent(type, data);
  await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
}

const countOf = (list: string[], value: string) => list.filter((v) => v === value).length;

describe('page images at the gateway', () => {
  it("the owner's image comes from file-conversion once, then from the gateway's memory", async () => {
    const owner = await member();
    const img = files.addImage();
    files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });

    const first = await get(gw.url, img.path, { cookie: owner.cookie });
    expect(first.status).toBe(200);
    expect(first.body.equals(img.bytes)).toBe(true);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['content-length']).toBe(String(img.bytes.length));
    expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(first.headers.etag).toBe(`"${img.hash}.webp"`);
    // the gateway's security headers, as on its other answers
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(first.headers['content-security-policy']).toContain("default-src 'self'");
    expect(first.headers['x-request-id']).toBeTruthy();
    expect(countOf(files.fetches, img.hash)).toBe(1);
    expect(countOf(files.checks, `${owner.userId} ${img.hash}`)).toBe(1);

    for (let i = 0; i < 5; i++) {
      const again = await get(gw.url, img.path, { cookie: owner.cookie });
      expect(again.status).toBe(200);
      expect(again.body.equals(img.bytes)).toBe(true);
    }
    // neither asked nor fetched again
    expect(countOf(files.fetches, img.hash)).toBe(1);
    expect(countOf(files.checks, `${owner.userId} ${img.hash}`)).toBe(1);

    // a revalidation: 304 with the same headers and no body
    const cached = await get(gw.url, img.path, { cookie: owner.cookie, 'if-none-match': `"${img.hash}.webp"` });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.etag).toBe(`"${img.hash}.webp"`);
    expect(cached.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    // HEAD: the headers of a GET, no body
    const head = await get(gw.url, img.path, { cookie: owner.cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(img.bytes.length));
    expect(head.body.length).toBe(0);
    expect(countOf(files.fetches, img.hash)).toBe(1);
    // counted in the request metrics like any other answer
    const internal = gw.internalUrl;
    expect(await (await fetch(`${internal}/metrics`)).text()).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/media\/:key"[^}]*status_code="200"/,
    );
  });

  it('a miss is decided once: one access check, then the bytes alone (never /media, which decides again)', async () => {
    const owner = await member();
    const buyer = await member();
    const img = files.addImage(50_000);
    files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    files.grant(buyer.userId, img.hash, { access: 'licence', maxAgeMs: 3_000 });
    for (const who of [owner, buyer]) {
      const res = await get(gw.url, img.path, { cookie: who.cookie });
      expect(res.status).toBe(200);
      expect(res.body.equals(img.bytes)).toBe(true);
      expect(countOf(files.checks, `${who.userId} ${img.hash}`)).toBe(1);
    }
    expect(countOf(files.fetches, img.hash)).toBe(1);
    expect(files.mediaReads.filter((r) => r.endsWith(img.hash))).toEqual([]);
  });

  it('a stranger gets 404 and an anonymous caller 401, with no bytes fetched, even when the image is cached', async () => {
    const owner = await member();
    const stranger = await member();
    const img = files.addImage(1000);
    files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, img.path, { cookie: owner.cookie })).status).toBe(200);

    const refused = await get(gw.url, img.path, { cookie: stranger.cookie });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'NOT_FOUND' });
    expect(refused.headers['cache-control']).toBe('no-store');
    // the refusal is remembered briefly too: asked once
    expect((await get(gw.url, img.path, { cookie: stranger.cookie })).status).toBe(404);
    expect(countOf(files.checks, `${stranger.userId} ${img.hash}`)).toBe(1);

    const anonymous = await get(gw.url, img.path);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body.toString())).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    const forged = await get(gw.url, img.path, { cookie: `${owner.cookie.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(401);
    expect(forged.headers['set-cookie']?.[0]).toMatch(/^pc_session=;/);
    expect(countOf(files.fetches, img.hash)).toBe(1);

    // an image file-conversion does not have is 404, and nothing is cached for it
    const ghost = `/media/${'0'.repeat(64)}.webp`;
    files.grant(owner.userId, '0'.repeat(64), { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, ghost, { cookie: owner.cookie })).status).toBe(404);
    expect(gw.gateway.media.bytes.has('0'.repeat(64))).toBe(false);
  });

  it("a licence holder's access ends within the bound file-conversion grants, with the browser asked to revalidate", async () => {
    const buyer = await member();
    const img = files.addImage(2000);
    files.grant(buyer.userId, img.hash, { access: 'licence', maxAgeMs: 500 });
    const ok = await get(gw.url, img.path, { cookie: buyer.cookie });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('private, no-cache');
    // the licence ends (file-conversion now refuses); the gateway's yes lasts no longer than the 500 ms granted: it
    // asks again once (not before the grant ran out: one check per grant), and the refusal is what it answers then.
    // Kept past its grant (the 60 s an owner gets, or MEDIA_ACCESS_MAX_MS) it would still serve when waitFor gives up.
    files.grant(buyer.userId, img.hash, { access: null, maxAgeMs: 2000 });
    await waitFor(async () =>
      (await get(gw.url, img.path, { cookie: buyer.cookie })).status === 404 ? true : undefined,
    );
    expect(countOf(files.checks, `${buyer.userId} ${img.hash}`)).toBe(2);

    // A licence granted for no time at all is not remembered: each request is decided anew.
    const other = await member();
    files.grant(other.userId, img.hash, { access: 'licence', maxAgeMs: 0 });
    expect((await get(gw.url, img.path, { cookie: other.cookie })).status).toBe(200);
    expect((await get(gw.url, img.path, { cookie: other.cookie })).status).toBe(200);
    expect(countOf(files.checks, `${other.userId} ${img.hash}`)).toBe(2);
    files.grant(other.userId, img.hash, { access: null, maxAgeMs: 2000 });
    expect((await get(gw.url, img.path, { cookie: other.cookie })).status).toBe(404);
  });

  it('an ended licence, a deleted file or a changed screen drops the decisions at once (NATS events)', async () => {
    const buyer = await member();
    const owner = await member();
    const img = files.addImage(2000);
    files.grant(buyer.userId, img.hash, { access: 'licence', maxAgeMs: 60_000 });
    files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, img.path, { cookie: buyer.cookie })).status).toBe(200);
    expect((await get(gw.url, img.path, { cookie: owner.cookie })).status).toBe(200);
    files.grant(buyer.userId, img.hash, { access: null, maxAgeMs: 2000 });
    files.grant(owner.userId, img.hash, { access: null, maxAgeMs: 2000 });
    // still remembered (granted 60 s) until the events arrive
    expect((await get(gw.url, img.path, { cookie: buyer.cookie })).status).toBe(200);

    await publish('marketplace.licence.expired.v1', {
      purchaseId: randomUUID(),
      buyerId: buyer.userId,
      fileId: randomUUID(),
      expiredAt: new Date().toISOString(),
    });
    await waitFor(async () =>
      (await get(gw.url, img.path, { cookie: buyer.cookie })).status === 404 ? true : undefined,
    );
    expect((await get(gw.url, img.path, { cookie: owner.cookie })).status).toBe(200);
    await publish('files.file.deleted.v1', {
      fileId: randomUUID(),
      ownerId: owner.userId,
      deletedAt: new Date().toISOString(),
    });
    await waitFor(async () =>
      (await get(gw.url, img.path, { cookie: owner.cookie })).status === 404 ? true : undefined,
    );

    // a display reads as its screen's owner; its screen's new content is asked again
    const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: `u-${randomUUID()}` };
    const cookie = `pc_device=${await screens.signDevice(device)}`;
    files.grant(`device:${device.deviceId}`, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, img.path, { cookie })).status).toBe(200);
    files.grant(`device:${device.deviceId}`, img.hash, { access: null, maxAgeMs: 2000 });
    expect((await get(gw.url, img.path, { cookie })).status).toBe(200);
    await publish('screens.screen.changed.v1', {
      screenId: device.screenId,
      ownerId: device.ownerId,
      changedAt: new Date().toISOString(),
      playlistIds: [],
      fileIds: [],
    });
    await waitFor(async () => ((await get(gw.url, img.path, { cookie })).status === 404 ? true : undefined));
    // one byte fetch for all of them
    expect(countOf(files.fetches, img.hash)).toBe(1);
  });

  it('a revoked session or device is refused at once, although its decision and the bytes are cached', async () => {
    const owner = await member();
    const img = files.addImage(2000);
    files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, img.path, { cookie: owner.cookie })).status).toBe(200);
    await publishRevocation(owner.sessionId, owner.userId);
    await waitFor(async () => (gw.gateway.revocations.has(owner.sessionId) ? true : undefined));
    const revoked = await get(gw.url, img.path, { cookie: owner.cookie });
    expect(revoked.status).toBe(401);
    expect(revoked.headers['set-cookie']?.[0]).toMatch(/^pc_session=;/);

    const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner.userId };
    const cookie = `pc_device=${await screens.signDevice(device)}`;
    files.grant(`device:${device.deviceId}`, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    expect((await get(gw.url, img.path, { cookie })).status).toBe(200);
    await publish('screens.screen.revoked.v1', {
      screenId: device.screenId,
      deviceId: device.deviceId,
      ownerId: device.ownerId,
      revokedAt: new Date().toISOString(),
    });
    await waitFor(async () => (gw.gateway.deviceRevocations.has(device.deviceId) ? true : undefined));
    const gone = await get(gw.url, img.path, { cookie });
    expect(gone.status).toBe(401);
    expect(gone.headers['set-cookie']?.[0]).toMatch(/^pc_device=;/);
    expect(countOf(files.fetches, img.hash)).toBe(1);
  });

  it('keeps no more bytes than its budget: the least recently used image goes', async () => {
    const small = await startGateway({ ...env, MEDIA_CACHE_BYTES: String(250_000) });
    extra.push(small.gateway);
    const owner = await member();
    const [a, b, c] = [files.addImage(100_000), files.addImage(100_000), files.addImage(100_000)];
    for (const img of [a, b, c]) files.grant(owner.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    const read = async (img: typeof a) => {
      const res = await get(small.url, img.path, { cookie: owner.cookie });
      expect(res.status).toBe(200);
      expect(res.body.equals(img.bytes)).toBe(true);
    };
    await read(a);
    await read(b);
    await read(a); // a is now the most recently used
    expect(countOf(files.fetches, a.hash)).toBe(1);
    await read(c); // over budget: b goes, not a
    expect(small.gateway.media.bytes.bytes).toBeLessThanOrEqual(250_000);
    expect(small.gateway.media.bytes.has(b.hash)).toBe(false);
    await read(a);
    expect(countOf(files.fetches, a.hash)).toBe(1);
    await read(b);
    expect(countOf(files.fetches, b.hash)).toBe(2);
    // an image larger than the whole budget is served, never kept
    const big = files.addImage(300_000);
    files.grant(owner.userId, big.hash, { access: 'owner', maxAgeMs: 60_000 });
    await read(big);
    await read(big);
    expect(countOf(files.fetches, big.hash)).toBe(2);
  });

  it('concurrent misses for one image make one byte fetch; one caller asking many times makes one check', async () => {
    const img = files.addImage(200_000);
    const members = await Promise.all(Array.from({ length: 8 }, () => member()));
    for (const m of members) files.grant(m.userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    files.state.fetchDelayMs = 300;
    try {
      const answers = await Promise.all(
        members.flatMap((m) => [1, 2, 3].map(() => get(gw.url, img.path, { cookie: m.cookie }))),
      );
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.equals(img.bytes)).toBe(true);
      }
    } finally {
      files.state.fetchDelayMs = 0;
    }
    expect(countOf(files.fetches, img.hash)).toBe(1);
    for (const m of members) expect(countOf(files.checks, `${m.userId} ${img.hash}`)).toBe(1);
  });

  it('an expired session is refreshed on an image request too: the new cookie comes with the image', async () => {
    const userId = `u-${randomUUID()}`;
    const sessionId = `s-${randomUUID()}`;
    account.liveSessions.set(sessionId, userId);
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await keys.sign({ sub: userId, sid: sessionId, iat: past - 900, exp: past });
    const img = files.addImage(1000);
    files.grant(userId, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    const res = await get(gw.url, img.path, { cookie: cookieHeader(expired) });
    expect(res.status).toBe(200);
    expect(res.body.equals(img.bytes)).toBe(true);
    expect(res.headers['set-cookie']?.[0]).toMatch(/^pc_session=[^;]+\..+; Path=\/; HttpOnly/);
  });

  it('file-conversion down: 503 JSON, nothing cached, for a member (HTTP) and a display (the relay)', async () => {
    const down = await startGateway({
      ...env,
      FILES_URL: 'http://127.0.0.1:9',
      DEVICE_READ_SUBJECT_PREFIX: `nobody-${randomUUID()}.device`,
    });
    extra.push(down.gateway);
    const owner = await member();
    const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner.userId };
    const img = files.addImage(1000);
    for (const cookie of [owner.cookie, `pc_device=${await screens.signDevice(device)}`]) {
      const res = await get(down.url, img.path, { cookie });
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(down.gateway.media.access.size).toBe(0);
  });

  it('an older file-conversion, without the relay call (404): the display is checked over HTTP', async () => {
    const prefix = `older-files-${randomUUID()}.device`;
    const older = serveDeviceRpc(nc, {
      secret,
      prefix,
      queue: 'older-files',
      logger: createLogger('older-files', 'silent'),
      handlers: {},
    });
    try {
      const gateway = await startGateway({ ...env, DEVICE_READ_SUBJECT_PREFIX: prefix });
      extra.push(gateway.gateway);
      const device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: `u-${randomUUID()}` };
      const img = files.addImage(1000);
      files.grant(`device:${device.deviceId}`, img.hash, { access: 'owner', maxAgeMs: 60_000 });
      const res = await get(gateway.url, img.path, { cookie: `pc_device=${await screens.signDevice(device)}` });
      expect(res.status).toBe(200);
      expect(files.httpChecks).toContain(`device:${device.deviceId} ${img.hash}`);
    } finally {
      await older.stop();
    }
  });

  it("displays' checks go over the relay, many displays' in one NATS request, none over HTTP", async () => {
    const owner = await member();
    const img = files.addImage(1000);
    const displays = Array.from({ length: 30 }, () => ({
      deviceId: randomUUID(),
      screenId: randomUUID(),
      ownerId: owner.userId,
    }));
    const cookies = await Promise.all(displays.map(async (d) => `pc_device=${await screens.signDevice(d)}`));
    for (const d of displays.slice(0, 20))
      files.grant(`device:${d.deviceId}`, img.hash, { access: 'owner', maxAgeMs: 60_000 });
    const [requests, http] = [files.relayRequests.length, files.httpChecks.length];
    const answers = await Promise.all(cookies.map((cookie) => get(gw.url, img.path, { cookie })));
    // the granted 20 see it, the other 10 are refused: each display decided as its own
    expect(answers.map((a) => a.status)).toEqual([...Array(20).fill(200), ...Array(10).fill(404)]);
    for (const d of displays) expect(files.checks).toContain(`device:${d.deviceId} ${img.hash}`);
    expect(files.httpChecks.length).toBe(http);
    const sent = files.relayRequests.length - requests;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(10);
  });

  it('other /media paths and methods still go to file-conversion; /internal is never routed', async () => {
    const owner = await member();
    const other = await get(gw.url, '/media/pages/abc.webp', { cookie: owner.cookie });
    expect(JSON.parse(other.body.toString())).toEqual({ service: 'file-conversion' });
    const before = files.checks.length;
    const internal = await get(gw.url, `/internal/media-access/${'a'.repeat(64)}.webp`, { cookie: owner.cookie });
    expect(internal.body.toString()).not.toContain('"access"');
    expect(files.checks.length).toBe(before);
  });
});

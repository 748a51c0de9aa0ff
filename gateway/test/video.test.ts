// Videos served by the gateway itself (src/media-video.ts): file-conversion decides (a stand-in answering its
// internal video-access check per caller, through the contract), the gateway reads the asked range from storage (a
// stand-in object store that answers ranged GETs of a signed URL and counts them) and answers with file-conversion's
// HTTP contract: 206 and Content-Range, 416, If-Range, 304, HEAD; refusals passed on as they came, a licence's yes
// kept no longer than granted, and decisions dropped by the events that change them.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  createEvent,
  type EventData,
  IDENTITY_HEADER,
  type Subject,
  type VideoAccessAnswer,
} from '@pagecast/contracts';
import { verifyAnyIdentityHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import { fakeAnswer, sendAnswer } from './contract';
import {
  closeServer,
  createKeys,
  type Keys,
  leaveAfterFirstBytes,
  listen,
  requestBytes,
  signedMember,
  startDeviceKeys,
  startEchoService,
  startFakeAccount,
  startGateway,
  waitFor,
} from './support';

const secret = testEnv().INTERNAL_SECRET;
const SIZE = 3 * 1024 * 1024 + 17;

/** An object store stand-in: GET /<key>?sig=<key's signature> with Range, as S3 answers a signed URL. */
async function startFakeStorage() {
  const objects = new Map<string, Buffer>();
  const reads: string[] = [];
  /** keys whose whole-object reads wait for the promise (a fill held) */
  const held = new Map<string, Promise<void>>();
  /** keys whose whole-object reads break after this many bytes (the storage failing mid-fill) */
  const breakAfter = new Map<string, number>();
  const sig = (key: string) => createHash('sha256').update(`signed:${key}`).digest('hex');
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://storage');
    const key = url.pathname.slice(1);
    if (url.searchParams.get('sig') !== sig(key)) return void res.writeHead(403).end();
    const body = objects.get(key);
    if (!body) return void res.writeHead(404).end();
    reads.push(`${key} ${req.headers.range ?? ''}`);
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) return void res.writeHead(200, { 'content-length': body.length }).end(body);
    const [start, end] = [Number(m[1]), Math.min(Number(m[2]), body.length - 1)];
    const whole = start === 0 && end === body.length - 1;
    if (whole) await held.get(key);
    res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${body.length}` });
    const cut = whole ? breakAfter.get(key) : undefined;
    if (cut !== undefined) {
      res.write(body.subarray(0, cut), () => setTimeout(() => res.destroy(), 20));
      return;
    }
    res.end(body.subarray(start, end + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const urlOf = (key: string) => `http://127.0.0.1:${port}/${key}?sig=${sig(key)}`;
  return { objects, reads, held, breakAfter, urlOf, close: () => closeServer(server) };
}

/** file-conversion stand-in: the internal video-access check, answered per (caller, file), each call recorded. */
async function startFakeFiles() {
  /** `${who}\0${fileId}[\0preview]` → a yes; anything else: 404 FILE_NOT_FOUND, as the real check refuses */
  const grants = new Map<string, VideoAccessAnswer>();
  const checks: string[] = [];
  const identities: ReturnType<typeof verifyAnyIdentityHeader>[] = [];
  const app = express();
  const answer = (preview: boolean) => (req: express.Request, res: express.Response) => {
    const identity = verifyAnyIdentityHeader(req.headers[IDENTITY_HEADER] as string | undefined, secret);
    if (!identity) return sendAnswer(res, 'files.videoAccess', 401, { code: 'UNAUTHORIZED', message: 'Unauthorized' });
    identities.push(identity);
    const who = 'kind' in identity ? `device:${identity.deviceId}` : identity.userId;
    const key = `${who}\u0000${req.params.id}${preview ? '\u0000preview' : ''}`;
    checks.push(key);
    const yes = grants.get(key);
    if (!yes) return sendAnswer(res, 'files.videoAccess', 404, { code: 'FILE_NOT_FOUND', message: 'not found' });
    sendAnswer(res, 'files.videoAccess', 200, yes);
  };
  app.get('/internal/video-access/:id', answer(false));
  app.get('/internal/video-access/:id/preview', answer(true));
  // what the gateway must no longer ask for: the bytes through file-conversion
  const proxied: string[] = [];
  app.use((req, res) => {
    proxied.push(req.url);
    res.json({ service: 'file-conversion' });
  });
  const { server, url } = await listen(app);
  const grant = (who: string, fileId: string, yes: VideoAccessAnswer, preview = false) =>
    grants.set(`${who}\u0000${fileId}${preview ? '\u0000preview' : ''}`, fakeAnswer('files.videoAccess', 200, yes));
  const revoke = (who: string, fileId: string) => grants.delete(`${who}\u0000${fileId}`);
  return { url, checks, identities, proxied, grant, revoke, close: () => closeServer(server) };
}

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let files: Awaited<ReturnType<typeof startFakeFiles>>;
let storage: Awaited<ReturnType<typeof startFakeStorage>>;
let screens: Awaited<ReturnType<typeof startDeviceKeys>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let nc: NatsConnection;
let gw: { gateway: Gateway; url: string; internalUrl: string };

beforeAll(async () => {
  keys = await createKeys();
  [account, files, storage, screens, echo] = await Promise.all([
    startFakeAccount(keys),
    startFakeFiles(),
    startFakeStorage(),
    startDeviceKeys(),
    startEchoService('echo'),
  ]);
  nc = await connect({ servers: testEnv().NATS_URL });
  gw = await startVideoGateway();
});

afterAll(async () => {
  await gw?.gateway.close();
  await nc?.close();
  await Promise.all([account?.close(), files?.close(), storage?.close(), screens?.close(), echo?.close()]);
});

/** A gateway in front of this file's stand-ins; with `cache`, its edge cache of videos in that folder and bound. */
const startVideoGateway = (cache?: { dir: string; bytes: number }) =>
  startGateway({
    ACCOUNT_URL: account.url,
    FILES_URL: files.url,
    MARKETPLACE_URL: echo.url,
    BILLING_URL: echo.url,
    SCREENS_URL: screens.url,
    ...(cache && { VIDEO_CACHE_DIR: cache.dir, VIDEO_CACHE_BYTES: String(cache.bytes) }),
  });

const member = () => signedMember(keys);

/** A stored video of SIZE random bytes and the yes file-conversion gives for it. */
function storedVideo(over: Partial<VideoAccessAnswer> = {}) {
  const fileId = randomUUID();
  const bytes = randomBytes(SIZE);
  storage.objects.set(`videos/${fileId}`, bytes);
  const yes: VideoAccessAnswer = {
    url: storage.urlOf(`videos/${fileId}`),
    size: bytes.length,
    mimeType: 'video/mp4',
    etag: `"${createHash('sha256').update(bytes).digest('hex')}"`,
    cacheControl: 'private, no-cache',
    maxAgeMs: 60_000,
    ...over,
  };
  return { fileId, bytes, yes, path: `/media/video/${fileId}` };
}

const get = (path: string, headers: Record<string, string> = {}, method = 'GET', base = gw.url) =>
  requestBytes(`${base}${path}`, headers, method);

async function publish<S extends Subject>(type: S, data: EventData<S>) {
  const event = createEvent(type, data);
  await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
}

const checksOf = (who: string, fileId: string) => files.checks.filter((c) => c === `${who}\u0000${fileId}`).length;

describe('videos at the gateway', () => {
  it("the owner's ranges come from storage through the gateway alone: 206 with Content-Range, one decision", async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const part = await get(v.path, { cookie: owner.cookie, range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${SIZE}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.headers.etag).toBe(v.yes.etag);
    expect(part.headers['cache-control']).toBe('private, no-cache');
    // the gateway's security headers, as on its other answers
    expect(part.headers['x-content-type-options']).toBe('nosniff');
    expect(part.body.equals(v.bytes.subarray(1000, 2000))).toBe(true);
    // open-ended and suffix ranges, then the whole without a Range (200), each the right bytes
    const rest = await get(v.path, { cookie: owner.cookie, range: `bytes=${SIZE - 5000}-` });
    expect([rest.status, rest.headers['content-range']]).toEqual([206, `bytes ${SIZE - 5000}-${SIZE - 1}/${SIZE}`]);
    expect(rest.body.equals(v.bytes.subarray(SIZE - 5000))).toBe(true);
    const tail = await get(v.path, { cookie: owner.cookie, range: 'bytes=-10' });
    expect(tail.body.equals(v.bytes.subarray(-10))).toBe(true);
    const whole = await get(v.path, { cookie: owner.cookie });
    expect([whole.status, whole.headers['content-length'], whole.headers['content-range']]).toEqual([
      200,
      String(SIZE),
      undefined,
    ]);
    expect(whole.body.equals(v.bytes)).toBe(true);
    // decided once for the four reads (the owner's yes is kept), the bytes never asked of file-conversion
    expect(checksOf(owner.userId, v.fileId)).toBe(1);
    expect(files.proxied.filter((u) => u.includes(v.fileId))).toEqual([]);
    expect(storage.reads.filter((r) => r.startsWith(`videos/${v.fileId} `))).toHaveLength(4);
    // the check carries the member's signed identity, as the proxied call did
    expect(files.identities.some((i) => i && !('kind' in i) && i.userId === owner.userId)).toBe(true);
  });

  it('past the end is 416 with the size; If-Range of another version sends the whole; 304 and HEAD send no body', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const past = await get(v.path, { cookie: owner.cookie, range: `bytes=${SIZE}-` });
    expect([past.status, past.headers['content-range'], past.body.length]).toEqual([416, `bytes */${SIZE}`, 0]);
    const reversed = await get(v.path, { cookie: owner.cookie, range: 'bytes=50-10' });
    expect(reversed.status).toBe(416);
    // If-Range naming this version: the range; another version: the whole file, 200
    const same = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-99', 'if-range': v.yes.etag });
    expect([same.status, same.body.length]).toEqual([206, 100]);
    const stale = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-99', 'if-range': '"older"' });
    expect([stale.status, stale.body.length]).toEqual([200, SIZE]);
    expect(stale.body.equals(v.bytes)).toBe(true);
    // several ranges are not served as such: the whole file, as file-conversion answers
    const multi = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-1,5-9' });
    expect([multi.status, multi.body.length]).toEqual([200, SIZE]);
    const reads = storage.reads.length;
    const cached = await get(v.path, { cookie: owner.cookie, 'if-none-match': v.yes.etag });
    expect([cached.status, cached.body.length, cached.headers.etag]).toEqual([304, 0, v.yes.etag]);
    const head = await get(v.path, { cookie: owner.cookie, range: 'bytes=10-19' }, 'HEAD');
    expect([head.status, head.headers['content-range'], head.headers['content-length']]).toEqual([
      206,
      `bytes 10-19/${SIZE}`,
      '10',
    ]);
    // neither read storage
    expect(storage.reads.length).toBe(reads);
  });

  it("a stranger, an anonymous caller and another owner's display are refused with file-conversion's answer, and read nothing", async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const stranger = await member();
    const refused = await get(v.path, { cookie: stranger.cookie, range: 'bytes=0-99' });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString()).code).toBe('FILE_NOT_FOUND');
    expect(refused.headers['content-range']).toBeUndefined();
    const anonymous = await get(v.path, { range: 'bytes=0-99' });
    expect(anonymous.status).toBe(401);
    const display = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: stranger.userId };
    const asDisplay = await get(v.path, {
      cookie: `pc_device=${await screens.signDevice(display)}`,
      range: 'bytes=0-99',
    });
    expect(asDisplay.status).toBe(404);
    expect(files.checks).toContain(`device:${display.deviceId}\u0000${v.fileId}`);
    // a refusal is not kept: asked again, decided again
    await get(v.path, { cookie: stranger.cookie, range: 'bytes=0-99' });
    expect(checksOf(stranger.userId, v.fileId)).toBe(2);
    expect(storage.reads.some((r) => r.startsWith(`videos/${v.fileId} `))).toBe(false);
  });

  it("a licence's yes is kept no longer than granted: once revoked, the next read is refused", async () => {
    const seller = await member();
    const buyer = await member();
    const v = storedVideo({ maxAgeMs: 300 });
    files.grant(seller.userId, v.fileId, v.yes);
    files.grant(buyer.userId, v.fileId, v.yes);
    expect((await get(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' })).status).toBe(206);
    files.revoke(buyer.userId, v.fileId);
    await new Promise((r) => setTimeout(r, 400));
    const after = await get(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' });
    expect(after.status).toBe(404);
    expect(checksOf(buyer.userId, v.fileId)).toBe(2);
  });

  it("an ended licence or the file's deletion drops the kept yes at once, whoever holds it", async () => {
    const seller = await member();
    const buyer = await member();
    const v = storedVideo();
    files.grant(buyer.userId, v.fileId, v.yes);
    expect((await get(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' })).status).toBe(206);
    files.revoke(buyer.userId, v.fileId);
    await publish('marketplace.licence.expired.v1', {
      purchaseId: randomUUID(),
      buyerId: buyer.userId,
      fileId: v.fileId,
      expiredAt: new Date().toISOString(),
    });
    await waitFor(async () =>
      (await get(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' })).status === 404 ? true : undefined,
    );
    // a second buyer's yes goes when the file is deleted (the event names the seller, the entry the file)
    const other = await member();
    const w = storedVideo();
    files.grant(other.userId, w.fileId, w.yes);
    expect((await get(w.path, { cookie: other.cookie, range: 'bytes=0-9' })).status).toBe(206);
    files.revoke(other.userId, w.fileId);
    await publish('files.file.deleted.v1', {
      fileId: w.fileId,
      ownerId: seller.userId,
      deletedAt: new Date().toISOString(),
    });
    await waitFor(async () =>
      (await get(w.path, { cookie: other.cookie, range: 'bytes=0-9' })).status === 404 ? true : undefined,
    );
  });

  it('an object gone from storage is 404 and asked afresh; the preview clip is decided by its own check', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    expect((await get(v.path, { cookie: owner.cookie, range: 'bytes=0-9' })).status).toBe(206);
    storage.objects.delete(`videos/${v.fileId}`);
    const gone = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    expect([gone.status, JSON.parse(gone.body.toString()).code]).toEqual([404, 'NOT_FOUND']);
    expect(gone.headers['content-range']).toBeUndefined();
    await get(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    expect(checksOf(owner.userId, v.fileId)).toBe(2);

    // the clip: any member the check allows; the video itself stays refused to them
    const buyer = await member();
    const clip = storedVideo({ cacheControl: 'private, max-age=300' });
    files.grant(buyer.userId, clip.fileId, clip.yes, true);
    const preview = await get(`${clip.path}/preview`, { cookie: buyer.cookie, range: 'bytes=5-14' });
    expect([preview.status, preview.headers['content-range'], preview.headers['cache-control']]).toEqual([
      206,
      `bytes 5-14/${SIZE}`,
      'private, max-age=300',
    ]);
    expect(preview.body.equals(clip.bytes.subarray(5, 15))).toBe(true);
    expect((await get(clip.path, { cookie: buyer.cookie, range: 'bytes=5-14' })).status).toBe(404);
    // the clip needs a member's session (the route's rule, before any check)
    const checks = files.checks.length;
    expect((await get(`${clip.path}/preview`, { range: 'bytes=0-9' })).status).toBe(401);
    expect(files.checks.length).toBe(checks);
  });

  it('reads share a few kept-alive connections to the storage; a player that leaves mid-read leaves no half-read one', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const stats = gw.gateway.videos.reads.stats;
    const opened = stats.opened;
    for (let i = 0; i < 20; i++) {
      const at = (i * 100_003) % (SIZE - 1000);
      const part = await get(v.path, { cookie: owner.cookie, range: `bytes=${at}-${at + 999}` });
      expect(part.body.equals(v.bytes.subarray(at, at + 1000))).toBe(true);
    }
    // one after the other: one connection, kept (at most one new, the earlier tests' may be reused)
    expect(stats.opened - opened).toBeLessThanOrEqual(1);
    expect(stats.idle).toBeGreaterThanOrEqual(1);
    // a player that closes after the first bytes of the whole file
    await leaveAfterFirstBytes(`${gw.url}${v.path}`, { cookie: owner.cookie });
    // the next reads are whole and right: the abandoned connection was not put back half-read
    for (let i = 0; i < 3; i++) {
      const again = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-99999' });
      expect(again.body.equals(v.bytes.subarray(0, 100_000))).toBe(true);
    }
    const whole = await get(v.path, { cookie: owner.cookie });
    expect(whole.body.equals(v.bytes)).toBe(true);
  });
});

describe('the edge cache of videos', () => {
  /** a gateway with a cache of its own, bounded to 2.5 videos */
  let cached: { gateway: Gateway; url: string };
  let dir: string;
  const CAP = Math.floor(2.5 * SIZE);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pagecast-video-cache-'));
    cached = await startVideoGateway({ dir: dir, bytes: CAP });
    await cached.gateway.videos.cache.ready;
  });

  afterAll(async () => {
    await cached?.gateway.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const read = (p: string, headers: Record<string, string> = {}, method = 'GET') => get(p, headers, method, cached.url);
  const cache = () => cached.gateway.videos.cache;
  /** the storage reads of this video: `fills` the whole object's (the copies), `ranges` the rest */
  const storageReads = (fileId: string) => {
    const all = storage.reads.filter((r) => r.startsWith(`videos/${fileId} `));
    const fills = all.filter((r) => r.endsWith(` bytes=0-${SIZE - 1}`)).length;
    return { fills, ranges: all.length - fills };
  };
  /** the copies on disk: complete ones by name, and unfinished ones */
  const onDisk = () => {
    const names = readdirSync(dir);
    return { copies: names.filter((n) => n.endsWith('.video')), parts: names.filter((n) => n.endsWith('.part')) };
  };
  const copyOf = (fileId: string) => onDisk().copies.find((n) => n.startsWith(`${fileId}.`));

  it('after the first read copies the video once, its ranges come from disk, each the right bytes', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const first = await read(v.path, { cookie: owner.cookie, range: 'bytes=100-199' });
    expect([first.status, first.body.equals(v.bytes.subarray(100, 200))]).toEqual([206, true]);
    await cache().settled();
    const name = copyOf(v.fileId) as string;
    expect(readFileSync(path.join(dir, name)).equals(v.bytes)).toBe(true);
    const hits = cache().stats.hits;
    // random ranges, open-ended, suffix and the whole: identical to the object, none read from storage
    for (let i = 0; i < 25; i++) {
      const a = Math.floor(Math.random() * SIZE);
      const b = Math.min(SIZE - 1, a + Math.floor(Math.random() * 600_000));
      const part = await read(v.path, { cookie: owner.cookie, range: `bytes=${a}-${b}` });
      expect([part.status, part.headers['content-range'], part.headers['content-length']]).toEqual([
        206,
        `bytes ${a}-${b}/${SIZE}`,
        String(b - a + 1),
      ]);
      expect(part.body.equals(v.bytes.subarray(a, b + 1))).toBe(true);
    }
    const tail = await read(v.path, { cookie: owner.cookie, range: 'bytes=-10' });
    expect(tail.body.equals(v.bytes.subarray(-10))).toBe(true);
    const whole = await read(v.path, { cookie: owner.cookie });
    expect([whole.status, whole.headers['content-range'], whole.body.equals(v.bytes)]).toEqual([200, undefined, true]);
    expect(whole.headers.etag).toBe(v.yes.etag);
    expect(cache().stats.hits - hits).toBe(27);
    expect(storageReads(v.fileId)).toEqual({ fills: 1, ranges: 1 });
  });

  it('reads while the copy is made share its one fill and come from storage meanwhile', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    let release = () => {};
    storage.held.set(`videos/${v.fileId}`, new Promise<void>((r) => (release = r)));
    const parts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        read(v.path, { cookie: owner.cookie, range: `bytes=${i * 1000}-${i * 1000 + 999}` }),
      ),
    );
    for (const [i, p] of parts.entries()) expect(p.body.equals(v.bytes.subarray(i * 1000, i * 1000 + 1000))).toBe(true);
    expect(copyOf(v.fileId)).toBeUndefined();
    release();
    await cache().settled();
    storage.held.delete(`videos/${v.fileId}`);
    expect(copyOf(v.fileId)).toBeDefined();
    await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    expect(storageReads(v.fileId)).toEqual({ fills: 1, ranges: 6 });
  });

  it('at most four copies are made at once; a video read meanwhile is copied on a later read', async () => {
    // a bound for ten videos, so that only the number of fills holds them back
    const roomy = await mkdtemp(path.join(tmpdir(), 'pagecast-video-cache-'));
    const wide = await startVideoGateway({ dir: roomy, bytes: 10 * SIZE });
    const wideCache = wide.gateway.videos.cache;
    try {
      await wideCache.ready;
      const owner = await member();
      const videos = Array.from({ length: 5 }, () => storedVideo());
      let release = () => {};
      const gate = new Promise<void>((r) => (release = r));
      for (const v of videos) {
        files.grant(owner.userId, v.fileId, v.yes);
        storage.held.set(`videos/${v.fileId}`, gate);
      }
      for (const v of videos) {
        const part = await get(v.path, { cookie: owner.cookie, range: 'bytes=0-9' }, 'GET', wide.url);
        expect(part.body.equals(v.bytes.subarray(0, 10))).toBe(true);
      }
      release();
      await wideCache.settled();
      for (const v of videos) storage.held.delete(`videos/${v.fileId}`);
      expect(videos.map((v) => storageReads(v.fileId).fills)).toEqual([1, 1, 1, 1, 0]);
      const last = videos[4] as (typeof videos)[number];
      await get(last.path, { cookie: owner.cookie, range: 'bytes=0-9' }, 'GET', wide.url);
      await wideCache.settled();
      expect([wideCache.stats.filled, storageReads(last.fileId).fills]).toEqual([5, 1]);
    } finally {
      await wide.gateway.close();
      await rm(roomy, { recursive: true, force: true });
    }
  });

  it('another version of the file (another ETag) is never served from the old copy; bytes unlike their ETag are not kept', async () => {
    const owner = await member();
    const v = storedVideo({ maxAgeMs: 0 });
    files.grant(owner.userId, v.fileId, v.yes);
    await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    await cache().settled();
    const old = copyOf(v.fileId);
    expect(old).toBeDefined();
    // the file replaced: new bytes, a new ETag in the next yes
    const next = randomBytes(SIZE);
    storage.objects.set(`videos/${v.fileId}`, next);
    const etag = `"${createHash('sha256').update(next).digest('hex')}"`;
    files.grant(owner.userId, v.fileId, { ...v.yes, etag });
    const after = await read(v.path, { cookie: owner.cookie, range: 'bytes=0-99999' });
    expect([after.headers.etag, after.body.equals(next.subarray(0, 100_000))]).toEqual([etag, true]);
    await cache().settled();
    const again = await read(v.path, { cookie: owner.cookie, range: 'bytes=0-99999' });
    expect(again.body.equals(next.subarray(0, 100_000))).toBe(true);
    expect(storageReads(v.fileId).fills).toBe(2);
    // the object changed under a yes that still names the first bytes: copied, checked, thrown away
    const w = storedVideo({ maxAgeMs: 0 });
    files.grant(owner.userId, w.fileId, w.yes);
    storage.objects.set(`videos/${w.fileId}`, randomBytes(SIZE));
    const failed = cache().stats.failed;
    await read(w.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    await cache().settled();
    expect(cache().stats.failed).toBe(failed + 1);
    expect(copyOf(w.fileId)).toBeUndefined();
    expect(onDisk().parts).toEqual([]);
  });

  it('the copies stay within their bound, the least recently read removed first; a deleted file takes its copy away', async () => {
    const owner = await member();
    const videos = Array.from({ length: 4 }, () => storedVideo());
    for (const v of videos) files.grant(owner.userId, v.fileId, v.yes);
    const touch = async (v: (typeof videos)[number]) => {
      await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
      await cache().settled();
    };
    const [a, b, c, d] = videos as [(typeof videos)[0], (typeof videos)[0], (typeof videos)[0], (typeof videos)[0]];
    await touch(a);
    await touch(b);
    await touch(a); // a read again: b is now the least recently read
    await touch(c);
    const sizes = () => onDisk().copies.reduce((n, name) => n + statSync(path.join(dir, name)).size, 0);
    expect(sizes()).toBeLessThanOrEqual(CAP);
    expect([copyOf(a.fileId), copyOf(b.fileId), copyOf(c.fileId)].map(Boolean)).toEqual([true, false, true]);
    await touch(d);
    expect([copyOf(a.fileId), copyOf(c.fileId), copyOf(d.fileId)].map(Boolean)).toEqual([false, true, true]);
    expect(cache().stats.bytes).toBe(2 * SIZE);
    expect(sizes()).toBeLessThanOrEqual(CAP);
    // the evicted video is read from storage again, and right
    const back = await read(a.path, { cookie: owner.cookie, range: 'bytes=5-14' });
    expect(back.body.equals(a.bytes.subarray(5, 15))).toBe(true);
    await cache().settled();
    await publish('files.file.deleted.v1', {
      fileId: d.fileId,
      ownerId: owner.userId,
      deletedAt: new Date().toISOString(),
    });
    await waitFor(async () => (copyOf(d.fileId) ? undefined : true));
  });

  it('a fill cut short (the storage failing, the reader leaving) never leaves a partial copy to be served', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    storage.breakAfter.set(`videos/${v.fileId}`, SIZE >> 1);
    const failed = cache().stats.failed;
    const first = await read(v.path, { cookie: owner.cookie, range: 'bytes=10-19' });
    expect(first.body.equals(v.bytes.subarray(10, 20))).toBe(true);
    await cache().settled();
    expect(cache().stats.failed).toBe(failed + 1);
    expect(copyOf(v.fileId)).toBeUndefined();
    expect(onDisk().parts).toEqual([]);
    storage.breakAfter.delete(`videos/${v.fileId}`);
    // the next reads are the object's bytes, from storage (the version is not copied again at once)
    for (const at of [0, SIZE >> 1, SIZE - 1000]) {
      const part = await read(v.path, { cookie: owner.cookie, range: `bytes=${at}-${at + 999}` });
      expect(part.body.equals(v.bytes.subarray(at, at + 1000))).toBe(true);
    }
    expect(storageReads(v.fileId).ranges).toBe(4);

    // a player that leaves after the first bytes: the copy is finished for the next reader, whole
    const w = storedVideo();
    files.grant(owner.userId, w.fileId, w.yes);
    await leaveAfterFirstBytes(`${cached.url}${w.path}`, { cookie: owner.cookie });
    await cache().settled();
    const name = copyOf(w.fileId) as string;
    expect(readFileSync(path.join(dir, name)).equals(w.bytes)).toBe(true);
    const whole = await read(w.path, { cookie: owner.cookie });
    expect(whole.body.equals(w.bytes)).toBe(true);
  });

  it('a player leaving in the middle of a read from the copy gives its buffer back; the next reads are whole', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    await cache().settled();
    const hits = cache().stats.hits;
    for (let i = 0; i < 5; i++) await leaveAfterFirstBytes(`${cached.url}${v.path}`, { cookie: owner.cookie });
    expect(cache().stats.hits).toBe(hits + 5);
    await waitFor(async () => (cache().stats.sending === 0 ? true : undefined));
    const whole = await read(v.path, { cookie: owner.cookie });
    expect(whole.body.equals(v.bytes)).toBe(true);
    expect(cache().stats.sending).toBe(0);
  });

  it('a restart keeps the copies made and removes unfinished ones', async () => {
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    await cache().settled();
    const left = path.join(dir, `${v.fileId}.v.${'0'.repeat(40)}.video.1234.part`);
    await writeFile(left, 'half');
    const again = await startVideoGateway({ dir: dir, bytes: CAP });
    try {
      expect(await again.gateway.videos.cache.ready).toBe(true);
      expect(existsSync(left)).toBe(false);
      const reads = storageReads(v.fileId);
      const part = await get(v.path, { cookie: owner.cookie, range: 'bytes=500-1499' }, 'GET', again.url);
      expect(part.body.equals(v.bytes.subarray(500, 1500))).toBe(true);
      expect(again.gateway.videos.cache.stats.hits).toBe(1);
      expect(storageReads(v.fileId)).toEqual(reads);
    } finally {
      await again.gateway.close();
    }
  });

  it("a licence's end refuses its buyer although the video is on disk; the owner still reads it", async () => {
    const owner = await member();
    const buyer = await member();
    const v = storedVideo({ maxAgeMs: 300 });
    files.grant(owner.userId, v.fileId, v.yes);
    files.grant(buyer.userId, v.fileId, v.yes);
    await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' });
    await cache().settled();
    const hits = cache().stats.hits;
    const bought = await read(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' });
    expect([bought.status, bought.body.equals(v.bytes.subarray(0, 10))]).toEqual([206, true]);
    expect(cache().stats.hits).toBe(hits + 1);
    files.revoke(buyer.userId, v.fileId);
    await new Promise((r) => setTimeout(r, 400));
    const after = await read(v.path, { cookie: buyer.cookie, range: 'bytes=0-9' });
    expect([after.status, JSON.parse(after.body.toString()).code]).toEqual([404, 'FILE_NOT_FOUND']);
    const stranger = await member();
    expect((await read(v.path, { cookie: stranger.cookie, range: 'bytes=0-9' })).status).toBe(404);
    expect(cache().stats.hits).toBe(hits + 1);
    expect((await read(v.path, { cookie: owner.cookie, range: 'bytes=0-9' })).status).toBe(206);
  });

  it('a cache folder that cannot be written leaves every read to storage, none failing', async () => {
    // a folder under a plain file: it can never be created (root ignores permission bits, not this)
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, 'x');
    const broken = await startVideoGateway({ dir: path.join(blocker, 'videos'), bytes: CAP });
    try {
      expect(await broken.gateway.videos.cache.ready).toBe(false);
      const owner = await member();
      const v = storedVideo();
      files.grant(owner.userId, v.fileId, v.yes);
      for (let i = 0; i < 3; i++) {
        const part = await get(v.path, { cookie: owner.cookie, range: 'bytes=1000-1999' }, 'GET', broken.url);
        expect([part.status, part.body.equals(v.bytes.subarray(1000, 2000))]).toEqual([206, true]);
      }
      expect(storageReads(v.fileId)).toEqual({ fills: 0, ranges: 3 });
    } finally {
      await broken.gateway.close();
    }
    // a folder that goes away once in use: the copy fails, the read does not
    const owner = await member();
    const v = storedVideo();
    files.grant(owner.userId, v.fileId, v.yes);
    const moved = `${dir}.moved`;
    await rm(moved, { recursive: true, force: true });
    await rename(dir, moved);
    await writeFile(dir, 'x');
    try {
      const part = await read(v.path, { cookie: owner.cookie, range: 'bytes=0-99' });
      expect([part.status, part.body.equals(v.bytes.subarray(0, 100))]).toEqual([206, true]);
      await cache().settled();
      const again = await read(v.path, { cookie: owner.cookie, range: 'bytes=100-199' });
      expect([again.status, again.body.equals(v.bytes.subarray(100, 200))]).toEqual([206, true]);
      expect(existsSync(moved)).toBe(true);
    } finally {
      await rm(dir, { force: true });
      await rename(moved, dir);
    }
  });
});

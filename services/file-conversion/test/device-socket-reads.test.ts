// The display's content reads over its socket (events/device-reads.ts): relayed by the gateway over core NATS, they
// must answer what the HTTP reads answer (status, body, ETag) under the same rules, and 304 with the ETag held, so a
// display may read either way and hold one ETag per resource. The gateway's image check for a display goes the same
// way and must decide as its HTTP check does.
import { randomUUID } from 'node:crypto';
import { deviceRpcClient, signDeviceIdentityHeader } from '@pagecast/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  convertedPdf,
  destroyService,
  newUser,
  publishEvent,
  startService,
  type TestService,
  waitFor,
} from './helpers';

let svc: TestService;
const owner = newUser();
let fileId: string;
let secondId: string;
let playlistId: string;
type Device = { deviceId: string; screenId: string; ownerId: string };
const display: Device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner };
const stranger: Device = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner };

const header = (as: Device) => signDeviceIdentityHeader(as, svc.env.INTERNAL_SECRET ?? '');

async function overHttp(as: Device, path: string) {
  const res = await fetch(`${svc.server.url}${path}`, { headers: { 'x-pagecast-identity': header(as) } });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.json() };
}

async function overSocket(as: Device, type: string, body: unknown) {
  const rpc = deviceRpcClient(svc.server.context.nats.nc, { prefix: svc.env.DEVICE_READ_SUBJECT_PREFIX, batchMs: 0 });
  return JSON.parse(await rpc(type, header(as), JSON.stringify({ type, ref: 1, body }))) as {
    status: number;
    etag?: string;
    body: unknown;
  };
}

const itemsPath = (id: string) => `/api/playlists/${id}/items`;
const pagesPath = (id: string) => `/api/files/${id}/pages?signage_mode=true`;

const uploaded = (title: string, pdf: string) => convertedPdf(svc, owner, title, pdf);

beforeAll(async () => {
  svc = await startService();
  [fileId, secondId] = await Promise.all([uploaded('one', 'vertical.pdf'), uploaded('two', 'cmykjpeg.pdf')]);
  playlistId = (await call(svc, owner, 'POST', '/api/playlists', { name: 'lobby' })).body.id as string;
  expect((await call(svc, owner, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [fileId] })).status).toBe(200);
  await publishEvent(svc, 'screens.screen.changed.v1', {
    screenId: display.screenId,
    ownerId: owner,
    changedAt: new Date().toISOString(),
    playlistIds: [playlistId],
    fileIds: [],
  });
  await waitFor(
    'the display may read its playlist',
    async () => (await overHttp(display, itemsPath(playlistId))).status === 200,
  );
}, 180_000);

afterAll(async () => {
  if (svc) await destroyService(svc);
});

describe("a display's content reads over its socket", () => {
  it('answer the HTTP reads: the same body and the same ETag, and 304 with no body for the ETag held', async () => {
    for (const [type, path, id] of [
      ['playlist', itemsPath(playlistId), playlistId],
      ['pages', pagesPath(fileId), fileId],
    ] as const) {
      const http = await overHttp(display, path);
      expect(http.status).toBe(200);
      expect(Array.isArray(http.body) && http.body.length).toBeGreaterThan(0);
      const socket = await overSocket(display, type, { id });
      expect(socket).toEqual({ status: 200, etag: http.etag, body: http.body });
      expect(await overSocket(display, type, { id, etag: http.etag })).toEqual({
        status: 304,
        etag: http.etag,
        body: null,
      });
      // an ETag of something else (the resource changed since): the whole answer again
      expect((await overSocket(display, type, { id, etag: 'W/"0-stale"' })).status).toBe(200);
    }
  });

  it('a changed playlist answers its new body and ETag on both paths', async () => {
    const before = await overSocket(display, 'playlist', { id: playlistId });
    expect(
      (await call(svc, owner, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [fileId, secondId] })).status,
    ).toBe(200);
    await waitFor(
      'the edit is read',
      async () => (await overSocket(display, 'playlist', { id: playlistId, etag: before.etag })).status === 200,
    );
    const http = await overHttp(display, itemsPath(playlistId));
    const socket = await overSocket(display, 'playlist', { id: playlistId });
    expect(socket.etag).not.toBe(before.etag);
    expect(socket).toEqual({ status: 200, etag: http.etag, body: http.body });
    expect((socket.body as unknown[]).length).toBe(2);
  });

  it('refuse what the screen does not play as the HTTP reads do, and a bad frame with a validation error', async () => {
    for (const [type, path, id] of [
      ['playlist', itemsPath(playlistId), playlistId],
      ['pages', pagesPath(fileId), fileId],
    ] as const) {
      const http = await overHttp(stranger, path);
      expect(http.status).toBeGreaterThanOrEqual(400);
      const socket = await overSocket(stranger, type, { id });
      expect(socket.status).toBe(http.status);
      expect(socket.etag).toBeUndefined();
      expect((socket.body as { code: string }).code).toBe(http.body.code);
    }
    const bad = await overSocket(display, 'playlist', { id: '' });
    expect(bad.status).toBe(400);
    expect((bad.body as { code: string }).code).toBe('VALIDATION');
  });

  it("the gateway's image check for a display answers as GET /internal/media-access does, for it and a stranger", async () => {
    const pages = (await overHttp(display, pagesPath(fileId))).body as Array<{ imagePath: string }>;
    const key = (pages[0]?.imagePath ?? '').slice('/media/'.length);
    expect(key).toMatch(/^[0-9a-f]{64}\.webp$/);
    for (const as of [display, stranger]) {
      const http = await overHttp(as, `/internal/media-access/${key}`);
      expect(http.status).toBe(200);
      expect(await overSocket(as, 'mediaAccess', { key })).toEqual({ status: 200, body: http.body });
    }
    expect((await overSocket(display, 'mediaAccess', { key })).body).toMatchObject({ access: 'owner' });
    expect((await overSocket(stranger, 'mediaAccess', { key })).body).toMatchObject({ access: null });
    // a key that names no image is a refusal; a body without a key is a validation error
    expect((await overSocket(display, 'mediaAccess', { key: `${'0'.repeat(64)}.webp` })).body).toMatchObject({
      access: null,
    });
    const bad = await overSocket(display, 'mediaAccess', {});
    expect([bad.status, (bad.body as { code: string }).code]).toEqual([400, 'VALIDATION']);
  });

  it('refuse a call without a valid identity', async () => {
    const rpc = deviceRpcClient(svc.server.context.nats.nc, { prefix: svc.env.DEVICE_READ_SUBJECT_PREFIX, batchMs: 0 });
    const answer = JSON.parse(await rpc('playlist', 'forged', JSON.stringify({ body: { id: playlistId } })));
    expect(answer.status).toBe(401);
  });
});

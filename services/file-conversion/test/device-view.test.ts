// What a display may read, in memory on every instance (data/screen-views.ts): two instances on the same
// data (A and B); every change is made through A or published as the screens service would, and B answers the
// display at once (each wait is far shorter than any age that could explain the change), the same after a restart,
// and from memory alone once warm.
import { randomUUID } from 'node:crypto';
import { INTERNAL_MEDIA_ACCESS_PATH } from '@pagecast/contracts';
import { signDeviceIdentityHeader } from '@pagecast/service-kit';
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteFile } from '../src/use-cases/delete-file';
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

/** Far below the 5 s the views used to be remembered for, and any backstop age: only an event explains a change. */
const AT_ONCE_MS = 3_000;

let a: TestService;
let b: TestService;
const bPrefix = uniqueName('fc-test-b');
const owner = newUser();
let f1: string;
let f2: string;
let p1: string;
let p2: string;

type Device = { deviceId: string; screenId: string; ownerId: string };
const newDevice = (): Device => ({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner });

/** A display's call through an instance, with the identity header the gateway passes. */
async function asDevice(svc: TestService, as: Device, path: string) {
  const res = await fetch(`${svc.server.url}${path}`, {
    headers: { 'x-pagecast-identity': signDeviceIdentityHeader(as, svc.env.INTERNAL_SECRET ?? '') },
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are compared whole or field by field
  return { status: res.status, body: (await res.json()) as any };
}
const items = (svc: TestService, as: Device, playlistId: string) =>
  asDevice(svc, as, `/api/playlists/${playlistId}/items`);
const pages = (svc: TestService, as: Device, fileId: string) =>
  asDevice(svc, as, `/api/files/${fileId}/pages?signage_mode=true`);
const fileIdsOf = (body: Array<{ fileId: string }>) => body.map((i) => i.fileId);

/** screens.screen.changed.v1, as the screens service publishes it. */
const assign = (as: Device, playlistIds: string[], fileIds: string[] = []) =>
  publishEvent(a, 'screens.screen.changed.v1', {
    screenId: as.screenId,
    ownerId: owner,
    changedAt: new Date().toISOString(),
    playlistIds,
    fileIds,
  });

const uploaded = (title: string, pdf: string) => convertedPdf(a, owner, title, pdf);

async function playlist(name: string, fileIds: string[]): Promise<string> {
  const id = (await call(a, owner, 'POST', '/api/playlists', { name })).body.id as string;
  expect((await call(a, owner, 'PUT', `/api/playlists/${id}/items`, { fileIds })).status).toBe(200);
  return id;
}

/** Assigned and seen by B (the wait of a first read, before anything is held). */
async function paired(playlistIds: string[]): Promise<Device> {
  const d = newDevice();
  await assign(d, playlistIds);
  await waitFor('B lets the display read', async () => (await items(b, d, playlistIds[0] as string)).status === 200);
  return d;
}

/**
 * B on A's data, with its own read-model durables, its screens one paused: the one consumer that writes screen_content
 * runs on A, as it does for all but one of the replicas in production (a change this process applied itself would
 * otherwise be seen by it at once, whatever it remembers; and other test runs' screens events would reach it too).
 */
async function startB(): Promise<TestService> {
  const svc = await startService({ share: a, settings: { CONSUMER_PREFIX: bPrefix } });
  await svc.server.context.nats.jsm.consumers.pause('SCREENS', `${bPrefix}-screens`, new Date(Date.now() + 3600_000));
  return svc;
}

beforeAll(async () => {
  a = await startService();
  b = await startB();
  [f1, f2] = await Promise.all([uploaded('one', 'vertical.pdf'), uploaded('two', 'cmykjpeg.pdf')]);
  p1 = await playlist('first', [f1]);
  p2 = await playlist('second', [f2]);
}, 180_000);

afterAll(async () => {
  const jsm = a?.server.context.nats.jsm;
  for (const [stream, suffix] of [
    ['ACCOUNT', 'account'],
    ['BILLING', 'billing'],
    ['MARKETPLACE', 'marketplace'],
    ['SCREENS', 'screens'],
  ] as const) {
    await jsm?.consumers.delete(stream, `${bPrefix}-${suffix}`).catch(() => {});
  }
  await b?.close();
  if (a) await destroyService(a);
});

describe('what a display may read, on every instance', () => {
  it('a new assignment is read on B at once, and the old playlist and its file are refused', async () => {
    const d = await paired([p1]);
    expect((await pages(b, d, f1)).status).toBe(200);
    // a refusal just now: anything B could have remembered was read a moment ago
    expect((await items(b, d, p2)).status).toBe(404);
    await assign(d, [p2]);
    await waitFor(
      'B refuses the old playlist',
      async () => (await items(b, d, p1)).status === 404 && (await pages(b, d, f1)).status === 404,
      AT_ONCE_MS,
      10,
    );
    const now = await items(b, d, p2);
    expect(now.status).toBe(200);
    expect(fileIdsOf(now.body)).toEqual([f2]);
    expect((await pages(b, d, f2)).status).toBe(200);
  });

  it('a playlist edited through A is what B answers at once: its items, and its files no longer in it', async () => {
    const p3 = await playlist('edited', [f1, f2]);
    const d = await paired([p3]);
    expect(fileIdsOf((await items(b, d, p3)).body)).toEqual([f1, f2]);
    expect((await pages(b, d, f1)).status).toBe(200);
    expect((await items(b, d, p1)).status).toBe(404);
    expect((await call(a, owner, 'PUT', `/api/playlists/${p3}/items`, { fileIds: [f2] })).status).toBe(200);
    await waitFor(
      'B no longer shows the file taken out',
      async () => (await pages(b, d, f1)).status === 404,
      AT_ONCE_MS,
      10,
    );
    const now = await items(b, d, p3);
    expect(now.status).toBe(200);
    expect(fileIdsOf(now.body)).toEqual([f2]);
    // the same answer as the owner's own read, file by file
    expect(now.body).toEqual((await call(a, owner, 'GET', `/api/playlists/${p3}/items`)).body);
  });

  it('a revoked screen is refused by B at once', async () => {
    const d = await paired([p1]);
    expect((await items(b, d, p2)).status).toBe(404);
    await publishEvent(a, 'screens.screen.revoked.v1', {
      screenId: d.screenId,
      deviceId: d.deviceId,
      ownerId: owner,
      revokedAt: new Date().toISOString(),
    });
    await waitFor('B refuses the revoked screen', async () => (await items(b, d, p1)).status === 404, AT_ONCE_MS, 10);
    expect((await items(b, d, p1)).body.code).toBe('NOT_FOUND');
    expect((await pages(b, d, f1)).body.code).toBe('NOT_FOUND');
  });

  it('an event heard before the durable consumer wrote the read model is not lost', async () => {
    const d = newDevice();
    await assign(d, [p1]);
    // as if the one consumer that writes screen_content had not got to it yet: its record is not there
    const content = a.server.context.conn.collection<{ _id: string }>('screen_content');
    await waitFor('the consumer wrote it', async () => (await content.findOne({ _id: d.screenId })) !== null);
    await content.deleteOne({ _id: d.screenId });
    // B never read this screen: it reads the database (nothing) and applies the event it heard on top
    const read = await items(b, d, p1);
    expect(read.status).toBe(200);
    expect(fileIdsOf(read.body)).toEqual([f1]);
    expect((await items(b, d, p2)).status).toBe(404);
  });

  it('a file deleted through A is refused by A before its deletion is announced', async () => {
    const f3 = await uploaded('deleted', 'vertical.pdf');
    const p4 = await playlist('losing a file', [f3]);
    const d = newDevice();
    await assign(d, [p4]);
    await waitFor('A lets the display read', async () => (await pages(a, d, f3)).status === 200);
    // the deletion's events held back (as a slow outbox would): nothing but this instance's own write can explain
    // a refusal meanwhile
    const ctx = a.server.context;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    const outbox = {
      ...ctx.outbox,
      add: (async (...args: Parameters<typeof ctx.outbox.add>) => {
        held = true;
        await gate;
        return ctx.outbox.add(...args);
      }) as typeof ctx.outbox.add,
    };
    const deleting = deleteFile({ ...ctx, outbox }, owner, f3, { userId: owner, address: '203.0.113.9' });
    await waitFor('the deletion reached its first event', async () => held);
    try {
      expect((await pages(a, d, f3)).status).toBe(404);
    } finally {
      release();
      await deleting;
    }
  });

  it('a file deleted through A: B refuses its images at once, though it remembered which files show them', async () => {
    const f4 = await uploaded('images deleted', 'noembed-sjis.pdf');
    const d = await paired([await playlist('images', [f4])]);
    const shown = await pages(b, d, f4);
    expect(shown.status).toBe(200);
    const image = (shown.body[0].imagePath as string).slice('/media/'.length);
    const access = async () => (await asDevice(b, d, `${INTERNAL_MEDIA_ACCESS_PATH}/${image}`)).body.access;
    expect(await access()).toBe('owner');
    expect((await call(a, owner, 'DELETE', `/api/files/${f4}`)).status).toBe(200);
    await waitFor("B refuses the deleted file's image", async () => (await access()) === null, AT_ONCE_MS);
  });

  it('a restarted instance answers the same', async () => {
    const d = await paired([p2]);
    const answers = async (svc: TestService) =>
      Promise.all([items(svc, d, p2), items(svc, d, p1), pages(svc, d, f2), pages(svc, d, f1)]);
    const before = await answers(b);
    expect(before.map((r) => r.status)).toEqual([200, 404, 200, 404]);
    await b.close();
    b = await startB();
    expect(await answers(b)).toEqual(before);
  });

  it('once warm, a display reads its items, pages and images without a database query', async () => {
    const d = newDevice();
    await assign(d, [p1], [f2]);
    const conn = b.server.context.conn;
    const queries: string[] = [];
    const content = new Set(['files', 'file_pages', 'playlists', 'screen_content', 'licences']);
    conn.set('debug', (collection: string, method: string) => {
      if (content.has(collection)) queries.push(`${collection}.${method}`);
    });
    try {
      // a boot: the first reads take the records by id
      await waitFor('B lets the display read', async () => (await items(b, d, p1)).status === 200);
      const boot = [await items(b, d, p1), await pages(b, d, f1), await pages(b, d, f2)];
      expect(boot.map((r) => r.status)).toEqual([200, 200, 200]);
      // the gateway's check before it serves a page image (each image, every display)
      const image = String(boot[1]?.body[0]?.imagePath ?? '').slice('/media/'.length);
      const access = () => asDevice(b, d, `${INTERNAL_MEDIA_ACCESS_PATH}/${image}`);
      expect((await access()).body).toMatchObject({ access: 'owner' });
      expect(queries.length).toBeGreaterThan(0); // the count sees this instance's reads
      queries.length = 0;
      for (let i = 0; i < 5; i++) {
        expect(await Promise.all([items(b, d, p1), pages(b, d, f1), pages(b, d, f2)])).toEqual(boot);
        expect((await access()).body).toMatchObject({ access: 'owner' });
      }
      expect(queries).toEqual([]);
    } finally {
      conn.set('debug', false);
    }
  });
});

// Playlist calls against the real service (FerretDB, NATS, MinIO): validation, ownership, the atomic save, file
// deletion and the events they announce.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Playlist, PlaylistItemList, PlaylistList } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  newUser,
  publishEvent,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
const owner = newUser();
const seller = newUser();
const stranger = newUser();
/** the owner's files */
let a: string;
let b: string;
let c: string;
/** the seller's: d never sold to the owner, e bought by the owner */
let d: string;
let e: string;

async function uploaded(userId: string, title: string): Promise<string> {
  const pdf = await fileBytes(join(corpus, 'pdf/vertical.pdf'));
  const up = await upload(svc, userId, pdf, { title });
  expect(up.status).toBe(200);
  return up.body.id as string;
}

/** Events this service announced about one playlist, oldest first, read back from the FILES stream. */
async function announced(subject: string, playlistId: string): Promise<Record<string, unknown>[]> {
  const { jsm } = svc.server.context.nats;
  const info = await jsm.streams.info('FILES');
  const out: Record<string, unknown>[] = [];
  for (let seq = info.state.last_seq; seq > Math.max(0, info.state.last_seq - 2000); seq--) {
    const m = await jsm.streams.getMessage('FILES', { seq }).catch(() => undefined);
    if (!m || m.subject !== subject) continue;
    const event = m.json<{ data?: Record<string, unknown> }>();
    if (event.data?.playlistId === playlistId) out.unshift(event.data);
  }
  return out;
}

const fileIdsOf = (items: { fileId: string }[]) => items.map((i) => i.fileId);

async function createPlaylist(userId: string, name: string): Promise<string> {
  const r = await call(svc, userId, 'POST', '/api/playlists', { name });
  expect(r.status).toBe(200);
  return Playlist.parse(r.body).id;
}

const storedVersion = async (id: string) =>
  (await svc.server.context.conn.collection<{ _id: string; version: number }>('playlists').findOne({ _id: id }))
    ?.version;

beforeAll(async () => {
  svc = await startService();
  [a, b, c, d, e] = await Promise.all([
    uploaded(owner, 'A'),
    uploaded(owner, 'B'),
    uploaded(owner, 'C'),
    uploaded(seller, 'D'),
    uploaded(seller, 'E'),
  ]);
  await publishEvent(svc, 'marketplace.purchase.completed.v1', {
    purchaseId: crypto.randomUUID(),
    buyerId: owner,
    fileId: e,
    sellerId: seller,
    price: 3000,
    expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
  });
  await waitFor(
    'licence',
    async () => (await call(svc, owner, 'GET', `/api/files/${e}?signage_mode=true`)).status === 200,
  );
}, 120_000);

afterAll(async () => {
  if (svc) await destroyService(svc);
});

describe('create and list', () => {
  it('refuses a blank or missing name; creates with a trimmed name; lists only the caller’s with item counts', async () => {
    for (const body of [{ name: '   ' }, { name: '' }, {}, { name: 42 }]) {
      const r = await call(svc, owner, 'POST', '/api/playlists', body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION');
      expect(r.body.issues[0]).toMatchObject({ path: 'name', key: 'validation.playlistNameRequired' });
    }
    expect((await call(svc, owner, 'POST', '/api/playlists', { name: 'x'.repeat(101) })).status).toBe(400);

    const r = await call(svc, owner, 'POST', '/api/playlists', { name: '  ロビー  ', description: '受付' });
    expect(r.status).toBe(200);
    const created = Playlist.parse(r.body);
    expect(created).toMatchObject({ name: 'ロビー', description: '受付', userId: owner, itemCount: 0 });
    expect(
      await call(svc, owner, 'POST', `/api/playlists/${created.id}/items`, { fileId: a, position: 0 }),
    ).toMatchObject({
      status: 200,
    });

    const mine = PlaylistList.parse((await call(svc, owner, 'GET', '/api/playlists')).body);
    expect(mine.find((p) => p.id === created.id)?.itemCount).toBe(1);
    const theirs = PlaylistList.parse((await call(svc, stranger, 'GET', '/api/playlists')).body);
    expect(theirs.some((p) => p.id === created.id)).toBe(false);
    expect((await call(svc, undefined, 'GET', '/api/playlists')).status).toBe(401);
    expect(await announced('files.playlist.saved.v1', created.id)).toContainEqual(
      expect.objectContaining({ playlistId: created.id, ownerId: owner, name: 'ロビー', fileIds: [] }),
    );
  });
});

describe('items', () => {
  it('adds by position with its checks, and lists items by position with their files', async () => {
    const id = await createPlaylist(owner, 'items');
    const add = (body: unknown, as = owner) => call(svc, as, 'POST', `/api/playlists/${id}/items`, body);

    for (const position of [-1, 1.5, '0', null]) {
      const r = await add({ fileId: a, position });
      expect(r.status).toBe(400);
      expect(r.body.issues[0]).toMatchObject({ path: 'position', key: 'validation.positionInvalid' });
    }
    expect((await add({ position: 0 })).status).toBe(400);

    expect((await add({ fileId: b, position: 3 })).status).toBe(200);
    const first = await add({ fileId: a, position: 1 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ playlistId: id, fileId: a, position: 1, file: { id: a, access: 'owner' } });

    expect((await add({ fileId: c, position: 1 })).body).toMatchObject({ code: 'PLAYLIST_POSITION_TAKEN' });
    expect((await add({ fileId: c, position: 1 })).status).toBe(409);
    const again = await add({ fileId: a, position: 7 });
    expect(again).toMatchObject({ status: 409, body: { code: 'PLAYLIST_ITEM_EXISTS' } });

    // not the caller's and not bought, or not there at all: the same 404 as a missing file
    expect(await add({ fileId: d, position: 5 })).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    expect(await add({ fileId: 'no-such-file', position: 5 })).toMatchObject({
      status: 404,
      body: { code: 'FILE_NOT_FOUND' },
    });

    const bought = await add({ fileId: e, position: 0 });
    expect(bought).toMatchObject({ status: 200, body: { file: { id: e, access: 'purchased' } } });
    expect(bought.body.file.licenceExpiresAt).not.toBeNull();

    const items = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).body);
    expect(items.map((i) => [i.fileId, i.position])).toEqual([
      [e, 0],
      [a, 1],
      [b, 3],
    ]);
    expect(items[1]?.file).toMatchObject({ title: 'A', pageCount: expect.any(Number), displayDuration: 30 });

    // removing: the item goes, the others keep their positions; removing an absent file is harmless
    const saved = (await announced('files.playlist.saved.v1', id)).length;
    expect(await call(svc, owner, 'DELETE', `/api/playlists/${id}/items/${a}`)).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect(await call(svc, owner, 'DELETE', `/api/playlists/${id}/items/${a}`)).toMatchObject({ status: 200 });
    const after = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).body);
    expect(after.map((i) => [i.fileId, i.position])).toEqual([
      [e, 0],
      [b, 3],
    ]);
    // one announcement for the removal, none for the no-op
    const events = await announced('files.playlist.saved.v1', id);
    expect(events).toHaveLength(saved + 1);
    expect(events.at(-1)?.fileIds).toEqual([e, b]);
  });

  it('another member’s playlist ids answer 404 to every call and change nothing', async () => {
    const id = await createPlaylist(owner, 'private');
    expect((await call(svc, owner, 'PUT', `/api/playlists/${id}/items`, { fileIds: [a, b] })).status).toBe(200);
    const version = await storedVersion(id);

    const calls: [string, string, unknown?][] = [
      ['GET', `/api/playlists/${id}/items`],
      ['POST', `/api/playlists/${id}/items`, { fileId: d, position: 9 }],
      ['PUT', `/api/playlists/${id}/items`, { fileIds: [d] }],
      ['DELETE', `/api/playlists/${id}/items/${a}`],
      ['DELETE', `/api/playlists/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const r = await call(svc, stranger, method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe('PLAYLIST_NOT_FOUND');
      expect((await call(svc, undefined, method, path, body)).status).toBe(401);
    }
    expect((await call(svc, owner, 'GET', '/api/playlists/not-a-playlist/items')).status).toBe(404);
    const items = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).body);
    expect(fileIdsOf(items)).toEqual([a, b]);
    expect(await storedVersion(id)).toBe(version);
  });
});

describe('atomic save (PUT /api/playlists/:id/items)', () => {
  it('refuses an empty, repeating or inaccessible list and keeps the old items', async () => {
    const id = await createPlaylist(owner, 'save');
    const put = (body: unknown) => call(svc, owner, 'PUT', `/api/playlists/${id}/items`, body);
    expect((await put({ fileIds: [b, a] })).status).toBe(200);

    for (const body of [{ fileIds: [] }, {}, { fileIds: 'a' }]) {
      const r = await put(body);
      expect(r.status).toBe(400);
      expect(r.body.issues[0]).toMatchObject({ path: 'fileIds', key: 'validation.playlistFilesRequired' });
    }
    expect(await put({ fileIds: [a, c, a] })).toMatchObject({ status: 409, body: { code: 'PLAYLIST_ITEM_EXISTS' } });
    expect(await put({ fileIds: [a, d] })).toMatchObject({ status: 404, body: { code: 'FILE_NOT_FOUND' } });
    const kept = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).body);
    expect(fileIdsOf(kept)).toEqual([b, a]);

    const saved = await put({ fileIds: [c, e, a] });
    expect(saved.status).toBe(200);
    const items = PlaylistItemList.parse(saved.body);
    expect(items.map((i) => [i.fileId, i.position])).toEqual([
      [c, 0],
      [e, 1],
      [a, 2],
    ]);
    expect(items[1]?.file?.access).toBe('purchased');
    // a file that stayed keeps the time it was added
    expect(items[2]?.createdAt).toBe(kept[1]?.createdAt);
    expect((await announced('files.playlist.saved.v1', id)).at(-1)).toMatchObject({
      ownerId: owner,
      fileIds: [c, e, a],
    });
  });

  it('a reader during 50 saves only ever sees one of the saved lists, and no save is lost', async () => {
    const id = await createPlaylist(owner, 'atomic');
    const lists = [[a], [b, c, a, e], [e, c], [c, b, a], [a, e, b, c]];
    const allowed = new Set(['', ...lists.map((l) => l.join(','))]);
    const v0 = (await storedVersion(id)) ?? Number.NaN;

    let saving = true;
    const reads: string[] = [];
    const reader = (async () => {
      while (saving) {
        const r = await call(svc, owner, 'GET', `/api/playlists/${id}/items`);
        reads.push(fileIdsOf(r.body).join(','));
      }
    })();
    // five writers at once: the per-playlist lock serialises them
    let next = 0;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        while (next < 50) {
          const list = lists[next++ % lists.length] as string[];
          const r = await call(svc, owner, 'PUT', `/api/playlists/${id}/items`, { fileIds: list });
          expect(r.status).toBe(200);
        }
      }),
    );
    saving = false;
    await reader;

    expect(reads.length).toBeGreaterThan(5);
    for (const seen of reads) expect(allowed.has(seen), seen).toBe(true);
    expect(await storedVersion(id)).toBe(v0 + 50);
    const events = await announced('files.playlist.saved.v1', id);
    expect(events).toHaveLength(51); // the creation and each save
    const final = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).body);
    // each save is announced after its lock is let go, so two saves' events may reach the stream in either order:
    // consumers order a playlist's versions by updatedAt (the screens service's content view), and so does this
    const newest = [...events].sort((x, y) => Date.parse(String(x.updatedAt)) - Date.parse(String(y.updatedAt))).at(-1);
    expect(newest?.fileIds).toEqual(fileIdsOf(final));
  });
});

describe('loops of a video item', () => {
  it('a video plays a set number of times; loops on a page file, out of range or of a file not saved change nothing', async () => {
    // the seller's (the owner holds as many files as a free plan allows): a one-second H.264 clip, kept as it is
    // (no transcode), playable at once
    const dir = mkdtempSync(join(tmpdir(), 'pagecast-loops-'));
    let clip: string;
    try {
      const file = join(dir, 'clip.mp4');
      execFileSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file],
      ]);
      const up = await upload(svc, seller, await fileBytes(file), { title: 'Clip' });
      expect(up.status).toBe(200);
      clip = up.body.id as string;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await waitConverted(svc, seller, clip)).kind).toBe('video');
    const id = await createPlaylist(seller, 'Loops');
    const items = async () =>
      PlaylistItemList.parse((await call(svc, seller, 'GET', `/api/playlists/${id}/items`)).body);

    let r = await call(svc, seller, 'PUT', `/api/playlists/${id}/items`, { fileIds: [d, clip], loops: { [clip]: 3 } });
    expect(r.status).toBe(200);
    expect((await items()).map((i) => [i.fileId, i.loops ?? 1])).toEqual([
      [d, 1],
      [clip, 3],
    ]);
    const version = await storedVersion(id);

    // refused, nothing saved: loops on a document, on a file not in the list, out of range or not a whole number
    for (const [loops, status, code] of [
      [{ [d]: 2 }, 422, 'PLAYLIST_LOOPS_NOT_VIDEO'],
      [{ [e]: 2 }, 422, 'PLAYLIST_LOOPS_NOT_VIDEO'],
      [{ [clip]: 0 }, 400, 'VALIDATION'],
      [{ [clip]: 100 }, 400, 'VALIDATION'],
      [{ [clip]: 1.5 }, 400, 'VALIDATION'],
    ] as const) {
      r = await call(svc, seller, 'PUT', `/api/playlists/${id}/items`, { fileIds: [clip, d], loops });
      expect(r.status, JSON.stringify(loops)).toBe(status);
      expect(r.body.code).toBe(code);
      if (code === 'VALIDATION') expect(r.body.issues[0]).toMatchObject({ key: 'validation.playlistLoopsInvalid' });
    }
    expect(await storedVersion(id)).toBe(version);
    expect((await items()).map((i) => [i.fileId, i.loops ?? 1])).toEqual([
      [d, 1],
      [clip, 3],
    ]);

    // a save without loops (an older editor) keeps them; with loops, a video not named plays once
    r = await call(svc, seller, 'PUT', `/api/playlists/${id}/items`, { fileIds: [clip, d] });
    expect((await items()).find((i) => i.fileId === clip)?.loops).toBe(3);
    r = await call(svc, seller, 'PUT', `/api/playlists/${id}/items`, { fileIds: [clip, d], loops: {} });
    expect((await items()).find((i) => i.fileId === clip)?.loops).toBeUndefined();

    // adding one item: a video with its loops; a document with loops is refused and not added
    const other = await createPlaylist(seller, 'Loops, added');
    r = await call(svc, seller, 'POST', `/api/playlists/${other}/items`, { fileId: d, position: 0, loops: 2 });
    expect([r.status, r.body.code]).toEqual([422, 'PLAYLIST_LOOPS_NOT_VIDEO']);
    r = await call(svc, seller, 'POST', `/api/playlists/${other}/items`, { fileId: clip, position: 0, loops: 2 });
    expect(r.status).toBe(200);
    expect(r.body.loops).toBe(2);
    const added = PlaylistItemList.parse((await call(svc, seller, 'GET', `/api/playlists/${other}/items`)).body);
    expect(added.map((i) => [i.fileId, i.loops])).toEqual([[clip, 2]]);
  }, 120_000);
});

describe('deleting', () => {
  it('a deleted playlist is gone with its items, announced once', async () => {
    const id = await createPlaylist(owner, 'gone');
    await call(svc, owner, 'PUT', `/api/playlists/${id}/items`, { fileIds: [a] });
    expect(await call(svc, owner, 'DELETE', `/api/playlists/${id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call(svc, owner, 'GET', `/api/playlists/${id}/items`)).status).toBe(404);
    expect((await call(svc, owner, 'DELETE', `/api/playlists/${id}`)).status).toBe(404);
    const list = PlaylistList.parse((await call(svc, owner, 'GET', '/api/playlists')).body);
    expect(list.some((p) => p.id === id)).toBe(false);
    expect(await announced('files.playlist.deleted.v1', id)).toEqual([
      expect.objectContaining({ playlistId: id, ownerId: owner }),
    ]);
  });

  it('deleting a file takes it out of every playlist and announces each', async () => {
    await waitConverted(svc, owner, b);
    const p1 = await createPlaylist(owner, 'p1');
    const p2 = await createPlaylist(owner, 'p2');
    await call(svc, owner, 'PUT', `/api/playlists/${p1}/items`, { fileIds: [b, a] });
    await call(svc, owner, 'PUT', `/api/playlists/${p2}/items`, { fileIds: [b] });

    expect((await call(svc, owner, 'DELETE', `/api/files/${b}`)).status).toBe(200);
    const items1 = PlaylistItemList.parse((await call(svc, owner, 'GET', `/api/playlists/${p1}/items`)).body);
    expect(fileIdsOf(items1)).toEqual([a]);
    expect((await call(svc, owner, 'GET', `/api/playlists/${p2}/items`)).body).toEqual([]);
    const lists = PlaylistList.parse((await call(svc, owner, 'GET', '/api/playlists')).body);
    expect(lists.find((p) => p.id === p2)?.itemCount).toBe(0);
    expect((await announced('files.playlist.saved.v1', p1)).at(-1)?.fileIds).toEqual([a]);
    expect((await announced('files.playlist.saved.v1', p2)).at(-1)?.fileIds).toEqual([]);
    // the deleted file can no longer be added
    expect((await call(svc, owner, 'POST', `/api/playlists/${p2}/items`, { fileId: b, position: 0 })).status).toBe(404);
  });
});

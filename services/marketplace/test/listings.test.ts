import type { EventData } from '@pagecast/contracts';
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  destroyMarketplace,
  type Json,
  listingEvent,
  nextTime,
  publishEvent,
  publishListings,
  type TestService,
  startMarketplace,
  waitForRead,
} from './helpers';

let svc: TestService;
const run = uniqueName('run').slice(-20);
const member = uniqueName('member');
const listedIds = async () =>
  (await call(svc, member, 'GET', `/api/marketplace?tags=${run}`)).body.files.map((f: Json) => f.id) as string[];

/** file-conversion's snapshot after a change (files.file.updated.v1). */
const snapshot = (
  l: EventData<'files.file.published.v1'>,
  over: Partial<EventData<'files.file.updated.v1'>> = {},
): EventData<'files.file.updated.v1'> => ({
  fileId: l.fileId,
  ownerId: l.ownerId,
  title: l.title,
  status: 'private',
  pageCount: l.pageCount,
  displayDuration: l.displayDuration,
  displayMode: 'fit-height',
  tags: l.tags,
  isPublished: true,
  publishPrice: l.publishPrice,
  updatedAt: nextTime(),
  ...over,
});

beforeAll(async () => {
  svc = await startMarketplace();
});
afterAll(async () => {
  await destroyMarketplace(svc);
});

const stored = (fileId: string) => svc.server.context.data.listings.get(fileId);

describe('the listing read model follows file-conversion', () => {
  it('shows a published file and its later changes of price, title, pages and tags', async () => {
    const l = listingEvent({ tags: [run] });
    await publishListings(svc, [l]);
    expect(await listedIds()).toContain(l.fileId);
    await publishEvent(
      svc,
      'files.file.updated.v1',
      snapshot(l, { publishPrice: 5000, title: '新しい題名', pageCount: 7, tags: [run, 'new'] }),
    );
    await waitForRead(svc, 'price change', async () => (await stored(l.fileId))?.publishPrice === 5000);
    const r = await call(svc, member, 'GET', `/api/marketplace?tags=${run}&tags=new`);
    expect(r.body.files).toMatchObject([{ id: l.fileId, title: '新しい題名', publishPrice: 5000, pageCount: 7 }]);
  });

  it('takes a file off sale at once when it is unpublished, disabled or deleted', async () => {
    const [a, b, c, d] = [0, 1, 2, 3].map(() => listingEvent({ tags: [run] }));
    await publishListings(
      svc,
      [a, b, c, d].filter((x): x is EventData<'files.file.published.v1'> => !!x),
    );
    if (!a || !b || !c || !d) throw new Error('unreachable');
    await publishEvent(svc, 'files.file.unpublished.v1', {
      fileId: a.fileId,
      ownerId: a.ownerId,
      updatedAt: nextTime(),
    });
    await publishEvent(svc, 'files.file.updated.v1', snapshot(b, { status: 'disabled' }));
    await publishEvent(svc, 'files.file.deleted.v1', { fileId: c.fileId, ownerId: c.ownerId, deletedAt: nextTime() });
    await publishEvent(svc, 'files.file.updated.v1', snapshot(d, { isPublished: false }));
    await waitForRead(svc, 'all four off sale', async () => {
      const ids = await listedIds();
      return ![a, b, c, d].some((x) => ids.includes(x.fileId));
    });
    // Buying any of them is refused as not on sale.
    const r = await call(svc, member, 'POST', `/api/marketplace/purchase/${c.fileId}`, {
      expectedPrice: c.publishPrice,
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('LISTING_NOT_FOUND');
  });

  it('ignores an older event delivered late, and never brings a deleted file back', async () => {
    const l = listingEvent({ tags: [run], publishPrice: 3000 });
    await publishListings(svc, [l]);
    const newer = snapshot(l, { publishPrice: 10000 });
    await publishEvent(svc, 'files.file.updated.v1', newer);
    await waitForRead(svc, 'newer price', async () => (await stored(l.fileId))?.publishPrice === 10000);
    // the first listing again (older updatedAt): a redelivery must not undo the newer price
    await publishEvent(svc, 'files.file.published.v1', l);
    await publishEvent(svc, 'files.file.deleted.v1', { fileId: l.fileId, ownerId: l.ownerId, deletedAt: nextTime() });
    await waitForRead(svc, 'deleted', async () => (await stored(l.fileId))?.deleted === true);
    expect((await stored(l.fileId))?.publishPrice).toBe(10000);
    await publishEvent(svc, 'files.file.published.v1', { ...l, updatedAt: nextTime() });
    // a marker published after it: once the marker is stored, the late "published" has been handled too
    const marker = listingEvent({ tags: [`${run}-m`] });
    await publishListings(svc, [marker]);
    expect(await listedIds()).not.toContain(l.fileId);
  });

  it('a deleted file that was never seen as listed cannot be listed later', async () => {
    const l = listingEvent({ tags: [run] });
    await publishEvent(svc, 'files.file.deleted.v1', { fileId: l.fileId, ownerId: l.ownerId, deletedAt: nextTime() });
    await publishEvent(svc, 'files.file.published.v1', l);
    await publishListings(svc, [listingEvent({ tags: [`${run}-m`] })]);
    expect((await stored(l.fileId))?.deleted).toBe(true);
    expect(await listedIds()).not.toContain(l.fileId);
  });
});

describe('what kind of file a listing sells', () => {
  const listed = async (fileId: string) => {
    const r = await call(svc, member, 'GET', `/api/marketplace?tags=${run}`);
    return (r.body.files as Json[]).find((f) => f.id === fileId);
  };

  it('answers a video as a video with its length in seconds, and a photo as a photo', async () => {
    const video = listingEvent({ tags: [run], pageCount: 1, kind: 'video', videoDurationMs: 65_400 });
    const photo = listingEvent({ tags: [run], pageCount: 1, kind: 'image', displayDuration: 10 });
    await publishListings(svc, [video, photo]);
    expect(await listed(video.fileId)).toMatchObject({ kind: 'video', videoSeconds: 65, pageCount: 1 });
    expect(await listed(photo.fileId)).toMatchObject({ kind: 'image', videoSeconds: null, displayDuration: 10 });
  });

  it('keeps a listing announced before kinds were carried: a document, then the kind an event tells', async () => {
    const old = listingEvent({ tags: [run] });
    await publishListings(svc, [old]);
    expect(await listed(old.fileId)).toMatchObject({ kind: 'pdf', videoSeconds: null, pageCount: 3 });

    // a later snapshot names the kind; one more without it (an older producer) leaves the kind told last
    await publishEvent(svc, 'files.file.updated.v1', snapshot(old, { kind: 'video', videoDurationMs: 9_600 }));
    await waitForRead(svc, 'kind told', async () => (await stored(old.fileId))?.kind === 'video');
    await publishEvent(svc, 'files.file.updated.v1', snapshot(old, { title: '題名だけ変更' }));
    await waitForRead(svc, 'title change', async () => (await stored(old.fileId))?.title === '題名だけ変更');
    expect(await listed(old.fileId)).toMatchObject({ kind: 'video', videoSeconds: 10, title: '題名だけ変更' });
  });
});

describe('a service starting with an empty database', () => {
  it('rebuilds the listings from the stream', async () => {
    const tag = `${run}-rebuild`;
    const keep = listingEvent({ tags: [tag], title: '再構築される資料' });
    const gone = listingEvent({ tags: [tag] });
    const deleted = listingEvent({ tags: [tag] });
    await publishListings(svc, [keep, gone, deleted]);
    await publishEvent(svc, 'files.file.unpublished.v1', {
      fileId: gone.fileId,
      ownerId: gone.ownerId,
      updatedAt: nextTime(),
    });
    await publishEvent(svc, 'files.file.deleted.v1', {
      fileId: deleted.fileId,
      ownerId: deleted.ownerId,
      deletedAt: nextTime(),
    });
    await waitForRead(svc, 'both off sale here', async () => (await stored(deleted.fileId))?.deleted === true);

    // A fresh instance: empty database, a durable it never had, delivering from the start of the stream.
    const fresh = await startMarketplace({
      env: {
        MONGO_DB: uniqueName('mp_rebuild').replace(/-/g, '_'),
        CONSUMER_PREFIX: uniqueName('mp-rebuild'),
        EVENTS_DELIVER: 'all',
      },
      share: svc,
    });
    try {
      await waitForRead(
        fresh,
        'rebuilt',
        async () => (await fresh.server.context.data.listings.get(deleted.fileId))?.deleted === true,
        90_000,
        200,
      );
      const r = await call(fresh, member, 'GET', `/api/marketplace?tags=${tag}`);
      expect(r.body.files.map((f: Json) => f.id)).toEqual([keep.fileId]);
      expect(r.body.files[0].title).toBe('再構築される資料');
    } finally {
      await destroyMarketplace(fresh);
    }
    // it reads the whole FILES stream of the shared NATS, other runs' events included
  }, 120_000);
});

import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  destroyMarketplace,
  type Json,
  listingEvent,
  newId,
  publishListings,
  type TestService,
  startMarketplace,
} from './helpers';

let svc: TestService;
// Every listing of this file carries the run's tag, so other runs' events on the shared NATS never count here.
const run = uniqueName('run').slice(-20);
const buyer = uniqueName('buyer');
const search = (query: string, userId = buyer) =>
  call(svc, userId, 'GET', `/api/marketplace?tags=${run}${query ? `&${query}` : ''}`);
const titles = (body: Json) => body.files.map((f: Json) => f.title);

const seller = uniqueName('seller');
const ids = { tower: newId(), halfKana: newId(), fullLatin: newId(), regex: newId(), plain: newId() };

beforeAll(async () => {
  svc = await startMarketplace();
  await publishListings(svc, [
    listingEvent({ fileId: ids.tower, title: '東京タワーの夜景', tags: [run, '観光', 'night'], ownerId: seller }),
    listingEvent({ fileId: ids.halfKana, title: 'ﾃｽﾄ資料 ｻﾝﾌﾟﾙ', tags: [run, 'night'] }),
    listingEvent({ fileId: ids.fullLatin, title: 'ＡＢＣ　Ｒｅｐｏｒｔ ２０２６', tags: [run] }),
    listingEvent({ fileId: ids.regex, title: 'Price (1+1) [draft].* $x^', tags: [run] }),
    listingEvent({ fileId: ids.plain, title: 'Price 11 draft x', tags: [run] }),
  ]);
});
afterAll(async () => {
  await destroyMarketplace(svc);
});

describe('title search', () => {
  it('finds a Japanese title by any part of it', async () => {
    const r = await search(`q=${encodeURIComponent('タワー')}`);
    expect(r.status).toBe(200);
    expect(titles(r.body)).toEqual(['東京タワーの夜景']);
    expect(titles((await search(`q=${encodeURIComponent('夜景')}`)).body)).toEqual(['東京タワーの夜景']);
  });

  it('matches half-width katakana with a full-width query and the other way round', async () => {
    expect(titles((await search(`q=${encodeURIComponent('テスト')}`)).body)).toEqual(['ﾃｽﾄ資料 ｻﾝﾌﾟﾙ']);
    expect(titles((await search(`q=${encodeURIComponent('サンプル')}`)).body)).toEqual(['ﾃｽﾄ資料 ｻﾝﾌﾟﾙ']);
    expect(titles((await search(`q=${encodeURIComponent('ｻﾝﾌﾟﾙ')}`)).body)).toEqual(['ﾃｽﾄ資料 ｻﾝﾌﾟﾙ']);
  });

  it('ignores case and full-width Latin letters and digits', async () => {
    for (const q of ['abc report', 'REPORT 2026', 'ｒｅｐｏｒｔ', '２０２６', 'Ａｂｃ']) {
      expect(titles((await search(`q=${encodeURIComponent(q)}`)).body), q).toEqual(['ＡＢＣ　Ｒｅｐｏｒｔ ２０２６']);
    }
  });

  it('takes regex characters literally', async () => {
    for (const q of ['(1+1)', '.*', '[draft]', '$x^', '1+1']) {
      expect(titles((await search(`q=${encodeURIComponent(q)}`)).body), q).toEqual(['Price (1+1) [draft].* $x^']);
    }
    // "11" is only in the plain title: a "+" in the query did not become a quantifier.
    expect(titles((await search('q=11')).body)).toEqual(['Price 11 draft x']);
    expect((await search(`q=${encodeURIComponent('(')}`)).body.files).toHaveLength(1);
  });

  it('answers an empty page when nothing matches', async () => {
    const r = await search(`q=${encodeURIComponent('存在しない言葉')}`);
    expect(r.body).toEqual({ files: [], pagination: { page: 1, limit: 24, total: 0, totalPages: 0, hasMore: false } });
  });
});

describe('tags', () => {
  it('keeps listings that have every tag asked for (repeated or comma-separated, any case)', async () => {
    expect(titles((await search('tags=night')).body).sort()).toEqual(['ﾃｽﾄ資料 ｻﾝﾌﾟﾙ', '東京タワーの夜景'].sort());
    expect(titles((await search(`tags=NIGHT&tags=${encodeURIComponent('観光')}`)).body)).toEqual(['東京タワーの夜景']);
    expect(titles((await search(`tags=night,${encodeURIComponent('観光')}`)).body)).toEqual(['東京タワーの夜景']);
    expect((await search('tags=night&tags=nothing-has-this')).body.files).toEqual([]);
  });

  it('combines tags with the title search', async () => {
    expect(titles((await search(`tags=night&q=${encodeURIComponent('ﾃｽﾄ')}`)).body)).toEqual(['ﾃｽﾄ資料 ｻﾝﾌﾟﾙ']);
  });
});

describe('the response', () => {
  it("has the spec's fields and marks the caller's own files", async () => {
    const asSeller = await search(`q=${encodeURIComponent('東京')}`, seller);
    expect(asSeller.body.files[0]).toEqual({
      id: ids.tower,
      title: '東京タワーの夜景',
      publishPrice: 3000,
      // announced without a kind (an older event): a document
      kind: 'pdf',
      videoSeconds: null,
      pageCount: 3,
      displayDuration: 30,
      updatedAt: expect.any(String),
      tags: [run, '観光', 'night'],
      sellerId: seller,
      thumbnailUrl: `/api/files/${ids.tower}/preview/1?size=thumb`,
      previewUrl: `/api/files/${ids.tower}/preview`,
      purchased: false,
      isOwn: true,
      // announced without the seller's statement (an older event): none shown
      copyright: null,
    });
    expect((await search(`q=${encodeURIComponent('東京')}`)).body.files[0].isOwn).toBe(false);
  });

  it('refuses a call without identity', async () => {
    expect((await call(svc, undefined, 'GET', '/api/marketplace')).status).toBe(401);
  });
});

describe('pages of 24, newest first', () => {
  const pageTag = `${run}-p`;
  const made: string[] = [];
  beforeAll(async () => {
    const list = Array.from({ length: 25 }, (_, i) => listingEvent({ title: `Deck ${i}`, tags: [run, pageTag] }));
    made.push(...list.map((l) => l.fileId));
    await publishListings(svc, list);
  });

  it('gives 24, then the 25th, then an empty page past the end', async () => {
    const p1 = await search(`tags=${pageTag}`);
    expect(p1.body.files).toHaveLength(24);
    expect(p1.body.pagination).toEqual({ page: 1, limit: 24, total: 25, totalPages: 2, hasMore: true });
    // newest first: the last published comes first, the first published is alone on page 2
    expect(p1.body.files[0].id).toBe(made[24]);
    const p2 = await search(`tags=${pageTag}&page=2`);
    expect(p2.body.files.map((f: Json) => f.id)).toEqual([made[0]]);
    expect(p2.body.pagination).toEqual({ page: 2, limit: 24, total: 25, totalPages: 2, hasMore: false });
    const p3 = await search(`tags=${pageTag}&page=3`);
    expect(p3.body.files).toEqual([]);
    expect(p3.body.pagination.hasMore).toBe(false);
  });

  it('accepts a smaller limit and refuses one above 24', async () => {
    const small = await search(`tags=${pageTag}&limit=10&page=3`);
    expect(small.body.files).toHaveLength(5);
    expect(small.body.pagination).toMatchObject({ limit: 10, totalPages: 3, hasMore: false });
    const exactly24 = await search(`tags=${pageTag}&limit=24`);
    expect(exactly24.status).toBe(200);
    for (const bad of ['limit=25', 'limit=0', 'limit=abc', 'page=0', 'page=-1', 'page=1.5']) {
      const r = await search(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.code, bad).toBe('VALIDATION');
    }
  });
});

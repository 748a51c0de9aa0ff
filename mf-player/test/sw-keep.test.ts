import { describe, expect, it } from 'vitest';
import {
  cacheCapBytes,
  DEFAULT_CACHE_MB,
  emptyIndex,
  evictionOrder,
  type KeepIndex,
  type KeptEntry,
  markAssigned,
  parseIndex,
  planRoom,
} from '../src/sw/keep';
import { createKeeper, REVALIDATE_MS } from '../src/sw/keeper';
import { parseByteRange, rangeResponse } from '../src/sw/range';
import { CACHE_NAMES, keptKey, strategyFor } from '../src/sw/strategy';

const origin = 'http://localhost:8080';
const MiB = 1024 * 1024;

describe('range answers from a kept video', () => {
  const bytes = new Uint8Array(1000).map((_, i) => i % 251);
  const whole = () =>
    new Response(bytes, {
      headers: { 'Content-Type': 'video/mp4', 'Content-Length': '1000', ETag: '"v1"' },
    });
  const ask = (range?: string) =>
    rangeResponse(new Request(`${origin}/media/video/f1`, range ? { headers: { Range: range } } : {}), whole());

  it("answer the player's open range from the start with the whole body as 206", async () => {
    const res = await ask('bytes=0-');
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe('bytes 0-999/1000');
    expect(res.headers.get('Content-Length')).toBe('1000');
    expect(res.headers.get('Content-Type')).toBe('video/mp4');
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('answer a middle range, an end past the size (clamped) and a suffix with exactly those bytes', async () => {
    const mid = await ask('bytes=100-199');
    expect([mid.status, mid.headers.get('Content-Range'), mid.headers.get('Content-Length')]).toEqual([
      206,
      'bytes 100-199/1000',
      '100',
    ]);
    expect(new Uint8Array(await mid.arrayBuffer())).toEqual(bytes.slice(100, 200));
    const past = await ask('bytes=990-5000');
    expect(past.headers.get('Content-Range')).toBe('bytes 990-999/1000');
    expect(new Uint8Array(await past.arrayBuffer())).toEqual(bytes.slice(990));
    const tail = await ask('bytes=-10');
    expect(tail.headers.get('Content-Range')).toBe('bytes 990-999/1000');
    expect((await tail.arrayBuffer()).byteLength).toBe(10);
  });

  it('answer 416 with the real size for a start past the end, a reversed range and -0', async () => {
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=50-10', 'bytes=-0']) {
      const res = await ask(range);
      expect(res.status, range).toBe(416);
      expect(res.headers.get('Content-Range'), range).toBe('bytes */1000');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
  });

  it('answer the whole body (200) without a Range, or with several ranges or another unit', async () => {
    expect((await ask()).status).toBe(200);
    for (const range of ['bytes=0-1,5-9', 'items=0-1', 'bytes=-']) {
      const res = await ask(range);
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(1000);
    }
  });

  it('parse as the server does', () => {
    expect(parseByteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange('bytes=0-0', 1)).toEqual({ start: 0, end: 0 });
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseByteRange(null, 1000)).toBeUndefined();
  });

  it('are what the worker does with a video, the cache first only for page images', () => {
    const req = (path: string) => ({ method: 'GET', url: `${origin}${path}` });
    expect(strategyFor(req('/media/video/f1'), origin)).toBe('video-range');
    expect(strategyFor(req('/media/abc.webp'), origin)).toBe('media-cache-first');
    expect(keptKey('/media/abc.webp?try=3', origin)).toBe(`${origin}/media/abc.webp`);
  });
});

const entry = (url: string, size: number, assignedAt: number, storedAt = assignedAt): KeptEntry => ({
  url,
  kind: url.includes('/video/') ? 'video' : 'image',
  size,
  storedAt,
  assignedAt,
});
const indexOf = (entries: KeptEntry[], assigned: string[]): KeepIndex => ({
  entries: Object.fromEntries(entries.map((e) => [e.url, e])),
  assigned,
});

describe('what the display drops to stay under its cap', () => {
  const all = [
    entry('a-old', 100, 10),
    entry('b-assigned-oldest', 100, 1),
    entry('c-newer', 100, 30),
    entry('d-mid', 100, 20, 5),
    entry('e-mid-stored-later', 100, 20, 6),
  ];

  it('is only unassigned content, assigned longest ago first, then stored first', () => {
    expect(evictionOrder(indexOf(all, ['b-assigned-oldest'])).map((e) => e.url)).toEqual([
      'a-old',
      'd-mid',
      'e-mid-stored-later',
      'c-newer',
    ]);
  });

  it('drops just enough of the oldest unassigned for what comes', () => {
    const index = indexOf(all, ['b-assigned-oldest']);
    expect(planRoom(index, 50, 600)).toEqual({ drop: [], fits: true });
    expect(planRoom(index, 150, 600)).toEqual({ drop: ['a-old'], fits: true });
    expect(planRoom(index, 250, 600)).toEqual({ drop: ['a-old', 'd-mid'], fits: true });
  });

  it('never drops assigned content: what cannot fit beside it is not kept, and nothing is dropped for it', () => {
    const index = indexOf(all, ['b-assigned-oldest', 'c-newer', 'd-mid']);
    // dropping both unassigned entries frees 200: 550 more cannot fit under 600 next to the 300 assigned
    expect(planRoom(index, 550, 600)).toEqual({ drop: [], fits: false });
    expect(planRoom(index, 300, 600)).toEqual({ drop: ['a-old', 'e-mid-stored-later'], fits: true });
    // larger than the cap itself
    expect(planRoom(emptyIndex(), 700, 600)).toEqual({ drop: [], fits: false });
  });

  it('gets back under a smaller cap by dropping unassigned content only', () => {
    const index = indexOf(all, ['b-assigned-oldest', 'c-newer']);
    expect(planRoom(index, 0, 150)).toEqual({ drop: ['a-old', 'd-mid', 'e-mid-stored-later'], fits: false });
    expect(planRoom(index, 0, 250)).toEqual({ drop: ['a-old', 'd-mid', 'e-mid-stored-later'], fits: true });
    expect(planRoom(index, 0, 400)).toEqual({ drop: ['a-old'], fits: true });
  });

  it('counts content named assigned again as assigned now, and forgets what a full list no longer names', () => {
    const index = indexOf([entry('x', 1, 1), entry('y', 1, 1)], ['x']);
    const added = markAssigned(index, ['y'], false, 50);
    expect(new Set(added.assigned)).toEqual(new Set(['x', 'y']));
    expect([added.entries.x?.assignedAt, added.entries.y?.assignedAt]).toEqual([50, 50]);
    const replaced = markAssigned(index, ['y'], true, 60);
    expect(replaced.assigned).toEqual(['y']);
    expect([replaced.entries.x?.assignedAt, replaced.entries.y?.assignedAt]).toEqual([1, 60]);
  });

  it('has a cap of the configured MiB, else the default, at most half the quota', () => {
    expect(cacheCapBytes('', undefined)).toBe(DEFAULT_CACHE_MB * MiB);
    expect(cacheCapBytes('512', undefined)).toBe(512 * MiB);
    expect(cacheCapBytes('nonsense', 10_000 * MiB)).toBe(DEFAULT_CACHE_MB * MiB);
    expect(cacheCapBytes('512', 600 * MiB)).toBe(300 * MiB);
    expect(cacheCapBytes('-5', 0)).toBe(DEFAULT_CACHE_MB * MiB);
  });

  it('reads back a stored index, leaving out malformed entries and unfinished downloads', () => {
    const read = parseIndex({
      assigned: ['a', 3],
      entries: { a: entry('a', 5, 1), b: { ...entry('b', 5, 1), pending: true }, c: { url: 'c' } },
    });
    expect(Object.keys(read.entries)).toEqual(['a']);
    expect(read.assigned).toEqual(['a']);
    expect(parseIndex('garbage')).toEqual(emptyIndex());
  });
});

/** Cache Storage in memory: a put is whole only once its body has been read to the end, as in a browser. */
function memoryCaches() {
  const stores = new Map<string, Map<string, { body: ArrayBuffer; init: ResponseInit }>>();
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map();
    stores.set(name, store);
    const cache = {
      match: async (url: string) => {
        const hit = store.get(url);
        return hit ? new Response(hit.body.slice(0), hit.init) : undefined;
      },
      put: async (url: string, res: Response) => {
        const body = await res.arrayBuffer();
        store.set(url, { body, init: { status: res.status, headers: res.headers } });
      },
      delete: async (url: string) => store.delete(url),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
    return cache as unknown as Cache;
  };
  return { caches: { open }, stores };
}

function server(files: Record<string, { size: number; etag?: string; status?: number }>) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ url, headers });
    const f = files[new URL(url).pathname];
    if (!f) return new Response('', { status: 404 });
    if (f.status) return new Response('', { status: f.status });
    if (f.etag && headers['If-None-Match'] === f.etag) return new Response(null, { status: 304 });
    return new Response(new Uint8Array(f.size), {
      headers: { 'Content-Length': String(f.size), ...(f.etag ? { ETag: f.etag } : {}) },
    });
  };
  return { fetch, calls };
}

describe("the display's kept media", () => {
  const setup = (files: Parameters<typeof server>[0], capBytes: number) => {
    const mem = memoryCaches();
    const net = server(files);
    let now = 1_000;
    const keeper = createKeeper({
      caches: mem.caches,
      fetch: net.fetch,
      now: () => now,
      cap: async () => capBytes,
      origin,
    });
    const kept = () => [...(mem.stores.get(CACHE_NAMES.media)?.keys() ?? [])].map((u) => new URL(u).pathname).sort();
    return { keeper, net, kept, mem, tick: (ms: number) => (now += ms) };
  };
  const v = (id: string) => ({ url: `/media/video/${id}`, kind: 'video' as const });
  const img = (id: string) => ({ url: `/media/${id}.webp`, kind: 'image' as const });

  it('keeps each assigned video whole, fetched once without a Range, and answers its ranges from the copy', async () => {
    const { keeper, net, kept, mem } = setup({ '/media/video/v1': { size: 500, etag: '"e1"' } }, 10_000);
    await keeper.keep([v('v1')], true);
    await keeper.keep([v('v1')], false);
    expect(kept()).toEqual(['/media/video/v1']);
    expect(net.calls.map((c) => [c.url, c.headers])).toEqual([[`${origin}/media/video/v1`, {}]]);
    const copy = await (await mem.caches.open(CACHE_NAMES.media)).match(`${origin}/media/video/v1`);
    const part = await rangeResponse(
      new Request(`${origin}/media/video/v1`, { headers: { Range: 'bytes=100-' } }),
      copy as Response,
    );
    expect([part.status, part.headers.get('Content-Range')]).toEqual([206, 'bytes 100-499/500']);
  });

  it('drops the oldest unassigned content first for new assigned content, never the assigned', async () => {
    const files = {
      '/media/video/old': { size: 400 },
      '/media/video/older': { size: 400 },
      '/media/video/still': { size: 400 },
      '/media/video/new': { size: 400 },
      '/media/p1.webp': { size: 100 },
    };
    const { keeper, kept, tick } = setup(files, 1300);
    await keeper.keep([v('older'), v('still')], true);
    tick(1000);
    await keeper.keep([v('old'), v('still'), img('p1')], true);
    expect(kept()).toEqual(['/media/p1.webp', '/media/video/old', '/media/video/older', '/media/video/still']);
    // a new assignment: "old" and "older" are no longer assigned; "new" needs 400 more than the 1300 allows
    tick(1000);
    await keeper.keep([v('still'), v('new'), img('p1')], true);
    expect(kept()).toEqual(['/media/p1.webp', '/media/video/new', '/media/video/old', '/media/video/still']);
    // "older" went (assigned longest ago), "old" stays while there is room
    const index = await keeper.index();
    expect(index.assigned.map((u) => new URL(u).pathname).sort()).toEqual([
      '/media/p1.webp',
      '/media/video/new',
      '/media/video/still',
    ]);
  });

  it('keeps nothing new (and drops nothing) when the assigned content alone fills the cap', async () => {
    const files = { '/media/video/a': { size: 600 }, '/media/video/b': { size: 600 } };
    const { keeper, kept } = setup(files, 1000);
    await keeper.keep([v('a'), v('b')], true);
    expect(kept()).toEqual(['/media/video/a']);
  });

  it('asks a kept video again with its ETag at most every REVALIDATE_MS, and drops it once it is gone', async () => {
    const files: Parameters<typeof server>[0] = { '/media/video/v1': { size: 100, etag: '"e1"' } };
    const { keeper, net, kept, tick } = setup(files, 10_000);
    await keeper.keep([v('v1')], true);
    await keeper.keep([v('v1')], true);
    expect(net.calls).toHaveLength(1);
    tick(REVALIDATE_MS);
    await keeper.keep([v('v1')], true);
    expect(net.calls).toHaveLength(2);
    expect(net.calls[1]?.headers).toEqual({ 'If-None-Match': '"e1"' });
    expect(kept()).toEqual(['/media/video/v1']);
    // what plays now (not a full list) is not asked again
    tick(REVALIDATE_MS);
    await keeper.keep([v('v1')], false);
    expect(net.calls).toHaveLength(2);
    files['/media/video/v1'] = { size: 100, status: 404 };
    await keeper.keep([v('v1')], true);
    expect(kept()).toEqual([]);
  });

  it('rebuilds its index from the cache when it was lost, what it finds counted as the oldest', async () => {
    const files = { '/media/video/a': { size: 300 }, '/media/video/b': { size: 300 } };
    const first = setup(files, 700);
    await first.keeper.keep([v('a')], true);
    // a new worker (an update, a restart) with the same caches but no index: "a" is found and counted
    await (await first.mem.caches.open(CACHE_NAMES.index)).delete(`${origin}/__pagecast/media-index.json`);
    const second = createKeeper({
      caches: first.mem.caches,
      fetch: server(files).fetch,
      now: () => 5_000,
      cap: async () => 500,
      origin,
    });
    await second.keep([v('b')], true);
    expect(first.kept()).toEqual(['/media/video/b']);
  });
});

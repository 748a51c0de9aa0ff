// The worker's store of kept media (page images and whole videos) under its cap: the index of what is kept (sizes,
// when assigned) beside the media cache, the background download of each assigned video, and the drops that keep
// the space under the cap (keep.ts decides which). Its caches, fetch and clock are passed in, so tests run it in Node.
import { type KeepIndex, type KeptEntry, type KeptKind, markAssigned, parseIndex, planRoom } from './keep';
import { CACHE_NAMES, keptKey } from './strategy';

export interface KeeperDeps {
  caches: Pick<CacheStorage, 'open'>;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  /** the cap in bytes, asked each time (the quota may change) */
  cap: () => Promise<number>;
  origin: string;
}

export interface KeepItem {
  url: string;
  kind: KeptKind;
}

/** A kept video is asked again (If-None-Match: a 304 when unchanged) at most this often. */
export const REVALIDATE_MS = 10 * 60_000;
/** Answers that mean "not yours (any more)": the kept copy must not be played again. */
const GONE = new Set([401, 403, 404, 410]);

/** The stored index, checked against what the media cache holds (an entry without its copy is forgotten). */
async function readIndex(caches: KeeperDeps['caches'], indexKey: string): Promise<KeepIndex> {
  let raw: unknown = null;
  try {
    raw = await (await (await caches.open(CACHE_NAMES.index)).match(indexKey))?.json();
  } catch {
    // none yet, or unreadable: rebuilt from the cache below
  }
  const loaded = parseIndex(raw);
  const media = await caches.open(CACHE_NAMES.media);
  const held = (await media.keys()).map((r) => r.url);
  const heldSet = new Set(held);
  for (const url of Object.keys(loaded.entries)) if (!heldSet.has(url)) delete loaded.entries[url];
  // kept before the index existed (or by a download the worker did not see end): counted, oldest of all
  for (const url of held) {
    if (loaded.entries[url]) continue;
    const res = await media.match(url);
    if (!res) continue;
    const announced = Number(res.headers.get('content-length'));
    const size = res.headers.has('content-length') && announced >= 0 ? announced : (await res.blob()).size;
    const kind: KeptKind = new URL(url).pathname.startsWith('/media/video/') ? 'video' : 'image';
    loaded.entries[url] = { url, kind, size, storedAt: 0, assignedAt: 0 };
  }
  return loaded;
}

export function createKeeper(deps: KeeperDeps) {
  const indexKey = new URL('/__pagecast/media-index.json', deps.origin).href;
  let index: KeepIndex | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const downloading = new Set<string>();
  const checkedAt = new Map<string, number>();

  /** Index changes one at a time (a message and a page's fetch may both change it). */
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = chain.then(task, task);
    chain = run.catch(() => undefined);
    return run;
  }

  /** The index, read once per worker life. */
  async function load(): Promise<KeepIndex> {
    index ??= await readIndex(deps.caches, indexKey);
    return index;
  }

  async function save(): Promise<void> {
    if (!index) return;
    const store = await deps.caches.open(CACHE_NAMES.index);
    await store.put(indexKey, new Response(JSON.stringify(index), { headers: { 'content-type': 'application/json' } }));
  }

  async function drop(urls: readonly string[]): Promise<void> {
    if (urls.length === 0 || !index) return;
    const media = await deps.caches.open(CACHE_NAMES.media);
    for (const url of urls) {
      await media.delete(url);
      delete index.entries[url];
    }
  }

  /**
   * Keeps a 200 answer under the cap: room is made first (oldest unassigned dropped), then the body is written (a
   * video streams to the cache, never whole in memory). False when it does not fit: it is then not kept.
   */
  async function store(url: string, res: Response, kind: KeptKind): Promise<boolean> {
    const key = keptKey(url, deps.origin);
    let body = res;
    let size = Number(res.headers.get('content-length'));
    if (!res.headers.has('content-length') || !(size >= 0)) {
      // a video of unknown length is not kept (it could not be counted before it is written)
      if (kind === 'video') return false;
      const blob = await res.blob();
      size = blob.size;
      body = new Response(blob, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    const cap = await deps.cap();
    const etag = res.headers.get('etag');
    const reserved = await serial(async () => {
      const idx = await load();
      const { [key]: _replaced, ...others } = idx.entries;
      const plan = planRoom({ ...idx, entries: others }, size, cap);
      if (!plan.fits) return false;
      await drop(plan.drop);
      const now = deps.now();
      idx.entries[key] = {
        url: key,
        kind,
        size,
        storedAt: now,
        assignedAt: now,
        pending: true,
        ...(etag ? { etag } : {}),
      };
      return true;
    });
    if (!reserved) return false;
    try {
      await (await deps.caches.open(CACHE_NAMES.media)).put(key, body);
    } catch {
      // the download broke (the network, the worker's quota): nothing half-kept
      await serial(async () => {
        await drop([key]);
        await save();
      });
      return false;
    }
    await serial(async () => {
      const e = index?.entries[key];
      if (e) delete e.pending;
      await save();
    });
    return true;
  }

  /**
   * Fetches one address whole and keeps it: an image once (it never changes), a video once and then, when
   * `revalidate`, asked again at most every REVALIDATE_MS (a new version replaces it; "gone" drops it).
   */
  async function fetchOne(url: string, kind: KeptKind, revalidate: boolean): Promise<void> {
    const key = keptKey(url, deps.origin);
    const have: KeptEntry | undefined = (await serial(load)).entries[key];
    if (have?.pending || downloading.has(key)) return;
    if (have) {
      if (kind === 'image' || !revalidate) return;
      const now = deps.now();
      if (now - (checkedAt.get(key) ?? Number.NEGATIVE_INFINITY) < REVALIDATE_MS) return;
      checkedAt.set(key, now);
    }
    downloading.add(key);
    try {
      const headers: Record<string, string> = have?.etag ? { 'If-None-Match': have.etag } : {};
      // whole, without a Range; not into the HTTP cache too (a second copy of the video on disk)
      const res = await deps.fetch(key, {
        credentials: 'same-origin',
        headers,
        ...(kind === 'video' ? { cache: 'no-store' as RequestCache } : {}),
      });
      if (res.status === 200) {
        // a copy just fetched is current: not asked again before REVALIDATE_MS
        if (await store(key, res, kind)) checkedAt.set(key, deps.now());
      } else if (GONE.has(res.status))
        await serial(async () => {
          await drop([key]);
          await save();
        });
      // 304: the kept copy is current; another failure passes (kept as it is, asked again later)
    } catch {
      // offline now: kept when next named
    } finally {
      downloading.delete(key);
    }
  }

  return {
    store,
    fetchOne,
    /**
     * The display names what its screen may play (`replace`: all of it, else what plays now): marked assigned,
     * unassigned content dropped while over the cap, then what is missing fetched in the background, the page
     * images first (small, and every page shows something offline), then the videos one at a time.
     */
    async keep(items: readonly KeepItem[], replace: boolean): Promise<void> {
      const named = items.map((i) => ({ key: keptKey(i.url, deps.origin), kind: i.kind }));
      const cap = await deps.cap();
      await serial(async () => {
        index = markAssigned(
          await load(),
          named.map((n) => n.key),
          replace,
          deps.now(),
        );
        await drop(planRoom(index, 0, cap).drop);
        await save();
      });
      const ordered = [...named.filter((n) => n.kind === 'image'), ...named.filter((n) => n.kind === 'video')];
      for (const n of ordered) await fetchOne(n.key, n.kind, replace);
    },
    /** the index as it stands (tests) */
    index: () => serial(load),
  };
}

export type Keeper = ReturnType<typeof createKeeper>;

// The player's service worker (built by rspack.config.ts to dist/sw.js, scope /signage/): a screen keeps playing
// through a network cut. Page images are immutable (content-hash keys), so they are served from the cache first;
// a paired display's videos are kept whole (fetched once in the background when assigned) and their byte ranges
// answered from the kept copy; both under a cap, the oldest unassigned dropped first (keeper.ts, keep.ts). The file,
// its pages and the playlist are fetched from the network first and the last good answer is kept for when the
// network is out; the app's own code and page likewise, so a reload during a cut still starts.
import { cacheCapBytes } from './keep';
import { createKeeper, type KeepItem } from './keeper';
import { rangeResponse } from './range';
import {
  appCacheKey,
  appFilesToKeep,
  CACHE_NAMES,
  KEEP_MESSAGE,
  keptKey,
  PRECACHE_APP_MESSAGE,
  PRECACHE_MESSAGE,
  type Strategy,
  strategyFor,
} from './strategy';

/** The cap in MiB set at build time (PLAYER_CACHE_MB, rspack.config.ts); empty: keep.ts's default. */
declare const __PLAYER_CACHE_MB__: string;

// The worker's own global, typed here (the project compiles against the DOM library, not WebWorker).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEvent) => void): void;
  addEventListener(type: 'message', fn: (e: ExtendableMessageEvent) => void): void;
}
const scope = self as unknown as WorkerScope;

const keeper = createKeeper({
  caches,
  fetch: (url, init) => fetch(url, init),
  now: () => Date.now(),
  cap: async () => {
    const quota = await navigator.storage
      ?.estimate?.()
      .then((e) => e.quota)
      .catch(() => undefined);
    return cacheCapBytes(__PLAYER_CACHE_MB__, quota);
  },
  origin: scope.location.origin,
});

scope.addEventListener('install', (e) => e.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (e) =>
  e.waitUntil(
    (async () => {
      const keep = new Set(Object.values(CACHE_NAMES));
      for (const name of await caches.keys())
        if (name.startsWith('pagecast-') && !keep.has(name)) await caches.delete(name);
      await scope.clients.claim();
    })(),
  ),
);

async function mediaCacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE_NAMES.media);
  // kept by its path, so the image the display's try-again query finally gets serves the plain address offline too
  const key = keptKey(request.url, scope.location.origin);
  const hit = await cache.match(key);
  if (hit) return hit;
  const res = await fetch(request.url, { credentials: 'same-origin' });
  if (res.status === 200) await keeper.store(key, res.clone(), 'image');
  return res;
}

/** A kept video answers the player's byte ranges; one not (yet) kept goes to the network, its Range as asked. */
async function videoRange(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE_NAMES.media);
  const hit = await cache.match(keptKey(request.url, scope.location.origin));
  return hit ? rangeResponse(request, hit) : fetch(request);
}

async function networkFirst(request: Request, cacheName: string, key: string): Promise<Response> {
  const cache = await caches.open(cacheName);
  try {
    const res = await fetch(request);
    if (res.status === 200) await cache.put(key, res.clone());
    // an answer that says "not yours (any more)" must not be replayed later from the cache
    else if (res.status === 401 || res.status === 403 || res.status === 404) await cache.delete(key);
    return res;
  } catch (err) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw err;
  }
}

function respond(strategy: Strategy, request: Request): Promise<Response> | null {
  switch (strategy) {
    case 'media-cache-first':
      return mediaCacheFirst(request);
    case 'video-range':
      return videoRange(request);
    case 'data-network-first':
      return networkFirst(request, CACHE_NAMES.data, request.url);
    case 'app-network-first':
      return networkFirst(request, CACHE_NAMES.app, appCacheKey(request));
    default:
      return null;
  }
}

scope.addEventListener('fetch', (e) => {
  const answer = respond(strategyFor(e.request, scope.location.origin), e.request);
  if (answer) e.respondWith(answer);
});

/** Keeps the player page (under the key every /signage/ navigation uses) and the app files it loaded. */
async function keepApp(page: unknown, urls: unknown): Promise<void> {
  const cache = await caches.open(CACHE_NAMES.app);
  const origin = scope.location.origin;
  const pagePath = typeof page === 'string' ? new URL(page, origin).pathname : '';
  if (typeof page === 'string' && (pagePath.startsWith('/signage/') || pagePath === '/screen')) {
    try {
      const res = await fetch(page, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (res.status === 200) await cache.put(appCacheKey({ url: new URL(page, origin).href, mode: 'navigate' }), res);
    } catch {
      // offline now
    }
  }
  const files = appFilesToKeep(Array.isArray(urls) ? urls.filter((u) => typeof u === 'string') : [], origin);
  for (const url of files.slice(0, 200)) {
    if (await cache.match(url)) continue;
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (res.status === 200) await cache.put(url, res);
    } catch {
      // offline now
    }
  }
}

/** The display's list of what its screen may play, as sent (anything else in it is ignored). */
function keepItems(items: unknown): KeepItem[] {
  if (!Array.isArray(items)) return [];
  const origin = scope.location.origin;
  return items
    .filter(
      (i): i is KeepItem =>
        !!i &&
        typeof i.url === 'string' &&
        i.url.startsWith('/media/') &&
        i.kind === (i.url.startsWith('/media/video/') ? 'video' : 'image'),
    )
    .slice(0, 5000)
    .map((i) => ({ url: new URL(i.url, origin).href, kind: i.kind }));
}

scope.addEventListener('message', (e) => {
  const data = e.data as { type?: string; urls?: unknown; page?: unknown; items?: unknown; replace?: unknown } | null;
  if (data?.type === PRECACHE_APP_MESSAGE) {
    e.waitUntil(keepApp(data.page, data.urls));
    return;
  }
  if (data?.type === KEEP_MESSAGE) {
    e.waitUntil(keeper.keep(keepItems(data.items), data.replace === true));
    return;
  }
  if (data?.type !== PRECACHE_MESSAGE || !Array.isArray(data.urls)) return;
  const origin = scope.location.origin;
  const urls = data.urls
    .filter((u): u is string => typeof u === 'string')
    .slice(0, 1000)
    .map((u) => new URL(u, origin).href);
  e.waitUntil(
    (async () => {
      const played = await caches.open(CACHE_NAMES.data);
      for (const url of urls) {
        const strategy = strategyFor({ method: 'GET', url }, origin);
        // images never change (kept once, under the cap); what is played is read again, the page may hold a newer copy
        if (strategy === 'media-cache-first') {
          await keeper.fetchOne(url, 'image', false);
          continue;
        }
        if (strategy !== 'data-network-first') continue;
        try {
          const res = await fetch(url, { credentials: 'same-origin' });
          if (res.status === 200) await played.put(url, res);
        } catch {
          // offline now: it is kept when it is next fetched
        }
      }
    })(),
  );
});

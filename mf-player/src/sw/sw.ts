// The player's service worker (built by rspack.config.ts to dist/sw.js, scope /signage/): a screen keeps playing
// through a network cut. Page images are immutable (content-hash keys), so they are served from the cache first;
// the file, its pages and the playlist are fetched from the network first and the last good answer is kept for
// when the network is out; the app's own code and page likewise, so a reload during a cut still starts.
import {
  appCacheKey,
  appFilesToKeep,
  CACHE_NAMES,
  PRECACHE_APP_MESSAGE,
  PRECACHE_MESSAGE,
  type Strategy,
  strategyFor,
} from './strategy';

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
  // kept by its path: a page image is immutable, and the display's try-again query (`?try=N`) only beats the
  // browser's memory of a failure, so the image it finally gets serves the plain address offline too
  const key = new URL(request.url);
  key.search = '';
  const hit = await cache.match(key.href);
  if (hit) return hit;
  const res = await fetch(request.url, { credentials: 'same-origin' });
  if (res.status === 200) await cache.put(key.href, res.clone());
  return res;
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

scope.addEventListener('message', (e) => {
  const data = e.data as { type?: string; urls?: unknown; page?: unknown } | null;
  if (data?.type === PRECACHE_APP_MESSAGE) {
    e.waitUntil(keepApp(data.page, data.urls));
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
      const media = await caches.open(CACHE_NAMES.media);
      const played = await caches.open(CACHE_NAMES.data);
      for (const url of urls) {
        const strategy = strategyFor({ method: 'GET', url }, origin);
        // images never change (skip those kept); what is played is read again, the page may hold a newer copy
        if (strategy === 'media-cache-first' && (await media.match(url))) continue;
        if (strategy !== 'media-cache-first' && strategy !== 'data-network-first') continue;
        try {
          const res = await fetch(url, { credentials: 'same-origin' });
          if (res.status === 200) await (strategy === 'media-cache-first' ? media : played).put(url, res);
        } catch {
          // offline now: it is kept when it is next fetched
        }
      }
    })(),
  );
});

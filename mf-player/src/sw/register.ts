// Registers the player's service worker (sw.ts, built to <remote>/sw.js) for the /signage/ pages, and asks it to
// keep the images of what is being played. The script lives under /remotes/player/, so the gateway answers it
// with `Service-Worker-Allowed: /` (gateway/src/static.ts) to let it control /signage/.
import type { KeepItem } from './keeper';
import {
  appFilesToKeep,
  CACHE_NAMES,
  KEEP_MESSAGE,
  PRECACHE_APP_MESSAGE,
  PRECACHE_MESSAGE,
  SCREEN_SCOPE,
  SW_SCOPE,
} from './strategy';

export type { KeepItem };

declare const __webpack_public_path__: string | undefined;

/** The worker's URL next to this remote's own files, when that is this page's origin (else null: no worker). */
export function serviceWorkerUrl(publicPath: string | undefined, pageHref: string): string | null {
  if (!publicPath) return null;
  try {
    const url = new URL('sw.js', new URL(publicPath, pageHref));
    return url.origin === new URL(pageHref).origin ? url.href : null;
  } catch {
    return null;
  }
}

let registering: Promise<ServiceWorkerRegistration | null> | undefined;
const handedOver = new Set<string>();

export function registerPlayerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  registering ??= (async () => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
    const publicPath = typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : undefined;
    const url = serviceWorkerUrl(publicPath, window.location.href);
    if (!url) return null;
    try {
      // a paired display (/screen) gets its own registration of the same worker
      const scope = window.location.pathname === SCREEN_SCOPE ? SCREEN_SCOPE : SW_SCOPE;
      return await navigator.serviceWorker.register(url, { scope });
    } catch (err) {
      // no worker (insecure origin, refused scope): the player still plays, only not through a network cut
      console.warn('[player] service worker not registered', err);
      return null;
    }
  })();
  return registering;
}

/**
 * Asks the worker to fetch and keep these URLs for a network cut: page images (kept once, they never change) and
 * the file, pages and playlist reads (read again: the page may have read them before the worker was there).
 */
export async function precacheForOffline(all: readonly string[]): Promise<void> {
  // a read is handed over once per page load: afterwards its 200 answers pass through the worker, which keeps them
  const urls = all.filter((u) => u.startsWith('/media/') || !handedOver.has(u));
  for (const u of urls) if (!u.startsWith('/media/')) handedOver.add(u);
  if (urls.length === 0 || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = await registerPlayerServiceWorker();
  if (!registration) return;
  const ready = await navigator.serviceWorker.ready;
  (navigator.serviceWorker.controller ?? ready.active)?.postMessage({ type: PRECACHE_MESSAGE, urls: [...urls] });
}

/**
 * Asks the worker to keep the app itself (the player page and the code this page loaded before the worker
 * controlled it), so that a reload during a network cut still starts the player.
 */
export async function precacheApp(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = await registerPlayerServiceWorker();
  if (!registration) return;
  const ready = await navigator.serviceWorker.ready;
  const loaded = performance.getEntriesByType('resource').map((e) => e.name);
  const urls = appFilesToKeep(loaded, window.location.origin);
  (navigator.serviceWorker.controller ?? ready.active)?.postMessage({
    type: PRECACHE_APP_MESSAGE,
    page: window.location.href,
    urls,
  });
}

/**
 * A paired display names the media its screen may play (page images, videos) for the worker to keep whole under its
 * cap (keeper.ts): `replace` when this is all of the screen's content (the rest is then no longer assigned, and
 * dropped first when room is needed), else these are added (what plays now).
 */
export async function keepForOffline(items: readonly KeepItem[], replace: boolean): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = await registerPlayerServiceWorker();
  if (!registration) return;
  const ready = await navigator.serviceWorker.ready;
  (navigator.serviceWorker.controller ?? ready.active)?.postMessage({ type: KEEP_MESSAGE, items: [...items], replace });
}

/**
 * A read's answer the page was given another way (the display's socket pushes its manifest with its version), kept
 * as the worker keeps a read it passed on (sw.ts, networkFirst): a reload during a network cut then starts from it,
 * not from the last one read. Nothing without Cache Storage (an insecure origin has no worker either).
 */
export async function keepGivenRead(path: string, text: string, etag: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  const url = new URL(path, window.location.href).href;
  const answer = new Response(text, { status: 200, headers: { 'content-type': 'application/json', etag } });
  await (await caches.open(CACHE_NAMES.data)).put(url, answer);
}

/**
 * A read answered another way that says "not yours (any more)" (401, 403, 404): its kept answer is dropped, as the
 * worker drops it when an HTTP read is answered so (sw.ts, networkFirst), so a reload during a cut does not replay it.
 */
export async function dropGivenRead(path: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  await (await caches.open(CACHE_NAMES.data)).delete(new URL(path, window.location.href).href);
}

// What the player's service worker does with each request, as a plain function (unit-tested; sw.ts applies it).

export const SW_SCOPE = '/signage/';
/** The paired display's page: the same worker, registered a second time for this scope. */
export const SCREEN_SCOPE = '/screen';
export const PRECACHE_MESSAGE = 'pagecast-player-precache';
export const PRECACHE_APP_MESSAGE = 'pagecast-player-precache-app';
/** The display names what its screen may play (page images and videos): kept whole, under the cap (keep.ts). */
export const KEEP_MESSAGE = 'pagecast-player-keep';
export const CACHE_NAMES = {
  media: 'pagecast-media-v1',
  data: 'pagecast-player-data-v1',
  app: 'pagecast-app-v1',
  /** what is kept in `media`: sizes, when assigned (keep.ts's index) */
  index: 'pagecast-media-index-v1',
};

export type Strategy =
  /** immutable page images (content-hash keys): the cache first, the network once */
  | 'media-cache-first'
  /** a video: the kept whole copy answers the player's byte ranges; the network (ranges and all) until it is kept */
  | 'video-range'
  /** what is being played (file, pages, playlist): the network, the last good answer when it is out */
  | 'data-network-first'
  /** the app itself (player pages, shell and remote code): the network, the cache when it is out */
  | 'app-network-first'
  /** everything else, including the live event stream: not touched */
  | 'pass';

const PLAYER_DATA = [
  /^\/api\/files\/[^/]+$/, // GET /api/files/:id?signage_mode=true
  /^\/api\/files\/[^/]+\/pages$/, // its pages
  /^\/api\/playlists\/[^/]+\/items$/, // the playlist being played
  /^\/api\/screens\/device\/me$/, // a paired display's own screen (what it plays), for a reload while offline
];

export function strategyFor(
  request: { method: string; url: string; mode?: string; destination?: string },
  origin: string,
): Strategy {
  if (request.method !== 'GET') return 'pass';
  const url = new URL(request.url);
  if (url.origin !== origin) return 'pass';
  const path = url.pathname;
  if (path.startsWith('/media/video/')) return 'video-range';
  if (path.startsWith('/media/')) return 'media-cache-first';
  if (path === '/api/events' || path === '/api/files/accessible') return 'pass';
  if (PLAYER_DATA.some((re) => re.test(path))) {
    return path.startsWith('/api/files/') && url.searchParams.get('signage_mode') !== 'true' && !path.endsWith('/pages')
      ? 'pass'
      : 'data-network-first';
  }
  if (path.startsWith('/api/')) return 'pass';
  if (request.mode === 'navigate') {
    return path.startsWith(SW_SCOPE) || path === SCREEN_SCOPE ? 'app-network-first' : 'pass';
  }
  if (path === '/remotes.json' || path.startsWith('/remotes/')) return 'app-network-first';
  if (request.destination === 'script' || request.destination === 'style') return 'app-network-first';
  return 'pass';
}

/** The cache key of a navigation: every /signage/… page is the same app shell. */
export function appCacheKey(request: { url: string; mode?: string }): string {
  if (request.mode === 'navigate') {
    const screen = new URL(request.url).pathname === SCREEN_SCOPE;
    return new URL(screen ? SCREEN_SCOPE : '/signage/', request.url).href;
  }
  return request.url;
}

/** The app files worth keeping for a reload during a network cut: same-origin code, styles and manifests. */
export function appFilesToKeep(urls: readonly string[], origin: string): string[] {
  const out = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw, origin);
    } catch {
      continue;
    }
    if (url.origin !== origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/media/')) continue;
    if (
      /\.(js|css)$/.test(url.pathname) ||
      url.pathname === '/remotes.json' ||
      /\/mf-manifest(\.lean)?\.json$/.test(url.pathname)
    )
      out.add(url.href);
  }
  return [...out];
}

/**
 * The key of kept media: its address without the query (a page image is immutable, and the display's try-again
 * query `?try=N` only beats the browser's memory of a failure; a video is one per file).
 */
export function keptKey(url: string, origin: string): string {
  const key = new URL(url, origin);
  key.search = '';
  key.hash = '';
  return key.href;
}

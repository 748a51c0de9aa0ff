// Reads JSON with If-None-Match: an unchanged resource answers 304 and the same object is returned, so react-query
// sees no change and a player refetching at every page change costs the server a comparison, not a body.
import { noteServerRead, throwIfResNotOk } from '@pagecast/ui';
import { workspaceHeadersOf } from './events-since';

// A Map kept newest-last, not lru-cache: that class would add 5.2 KB (brotli) to the player's first screen for these
// four lines (measured with the production build).
const known = new Map<string, { etag: string; data: unknown }>();
const MAX_KNOWN = 200;

/** An answer is the workspace's the call named: another workspace's copy is not the same resource. */
const keyOf = (url: string, headers = workspaceHeadersOf()) => `${Object.values(headers).join('')} ${url}`;

const remember = (key: string, etag: string, data: unknown) => {
  known.delete(key);
  known.set(key, { etag, data });
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value as string);
};

export async function fetchJsonWithEtag<T>(url: string, signal?: AbortSignal): Promise<T> {
  const headers = workspaceHeadersOf();
  const key = keyOf(url, headers);
  const previous = known.get(key);
  const res = await fetch(url, {
    credentials: 'include',
    signal,
    // A conditional request must reach the server (or the service worker), not the HTTP cache. The browser would
    // add 'Cache-Control: no-cache' to it, and a server honouring that never answers 304: max-age=0 says
    // "revalidate" without it.
    headers: previous ? { ...headers, 'If-None-Match': previous.etag, 'Cache-Control': 'max-age=0' } : headers,
    cache: 'no-store',
  });
  // a host whose @pagecast/ui predates it has no noteServerRead: the live stream then sends no `since`
  if (typeof noteServerRead === 'function') noteServerRead(res);
  if (res.status === 304 && previous) return previous.data as T;
  await throwIfResNotOk(res);
  const data = (await res.json()) as T;
  const etag = res.headers.get('ETag');
  if (etag) remember(key, etag, data);
  else known.delete(key);
  return data;
}

/**
 * What `url` answers with this ETag, given by another way than a read (the display's socket pushes its manifest): the
 * next conditional read of `url` sends it, and an unchanged resource answers 304 with `data`.
 */
export function rememberRead(url: string, etag: string, data: unknown) {
  remember(keyOf(url), etag, data);
}

/**
 * What is held for `url` (its ETag and data), for a read made another way than fetch (the display's socket): it sends
 * this ETag, and a 304 answers with this data, as fetchJsonWithEtag does with what it held when it asked.
 */
export function heldRead(url: string): { etag: string; data: unknown } | null {
  return known.get(keyOf(url)) ?? null;
}

/** Forgets what `url` answered (a read made another way whose answer had no ETag: the next read is not conditional). */
export function forgetRead(url: string) {
  known.delete(keyOf(url));
}

/** Forgets what was read (tests; a log-out). */
export function forgetEtags() {
  known.clear();
}

/** The ETag of what was last read from `url` (the display's manifest version), or null. */
export function knownEtag(url: string): string | null {
  return known.get(keyOf(url))?.etag ?? null;
}

// The JMA Atom feed poller. No I/O of its own: the caller gives it `fetch` (globalThis.fetch in the screens service,
// a local server in tests) and `publish` (the JetStream publish onto ALERTS), so it runs wherever the caller does.
import { parseAtomFeed } from '../atom.ts';
import { MAX_XML_BYTES } from '../xml.ts';

/** JMA refreshes its high-frequency feeds once a minute and asks clients not to poll them more often. */
export const MIN_INTERVAL_MS = 60_000;
/** The longest wait after failures in a row (doubling from the interval). */
export const MAX_BACKOFF_MS = 30 * 60_000;
/** Entry ids remembered per feed: a high-frequency feed lists the last minutes' reports, a few hundred at most. */
const SEEN_LIMIT = 5000;
/** Polls at which one report may fail before it is given up (a report JMA lists but no longer serves). */
export const MAX_ENTRY_ATTEMPTS = 5;

export interface PollerOptions {
  /** the Atom feeds (JMA's eqvol.xml, extra.xml, or a CAP feed in Atom) */
  urls: string[];
  fetch: typeof globalThis.fetch;
  /** one report's raw bytes; msgId is `<source>:<sha256 hex of the bytes>` (JetStream's Nats-Msg-Id) */
  publish: (xml: Uint8Array, msgId: string) => Promise<void>;
  /** between polls of a feed; at least MIN_INTERVAL_MS (a smaller value is raised to it) */
  intervalMs?: number;
  /** tests only: a shorter floor than JMA's minute */
  minIntervalMs?: number;
  /** waits (tests give one that records and returns at once); resolves early when the signal aborts */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** what happened, for the caller's log: no sentences, codes and numbers */
  onEvent?: (event: PollerEvent) => void;
  random?: () => number;
}

export type PollerEvent =
  | { type: 'published'; url: string; entryId: string; msgId: string }
  | { type: 'not-modified'; url: string }
  | { type: 'failed'; url: string; reason: string; failures: number; retryInMs: number }
  | { type: 'entry-failed'; url: string; entryId: string; reason: string; attempts: number; givenUp: boolean }
  | { type: 'polled'; url: string; entries: number; published: number; nextInMs: number };

export interface Poller {
  /** stops polling; resolves when the loop has ended (a publish under way finishes first) */
  stop(): Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // WebCrypto rather than node:crypto so that the module stays free of Node-only imports
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The report's origin for its message id, from its document element (a CAP feed goes through the same pipeline). */
function sourceOf(bytes: Uint8Array): 'jma' | 'cap' {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  return /<(?:[A-Za-z_][\w.-]*:)?alert[\s>]/.test(head) ? 'cap' : 'jma';
}

async function readCapped(res: Response): Promise<Uint8Array> {
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_XML_BYTES) throw new Error('too-large');
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_XML_BYTES) throw new Error('too-large');
  return bytes;
}

/** One feed's state: Last-Modified for If-Modified-Since, the entries already published. */
interface FeedState {
  url: string;
  lastModified: string | null;
  seen: Set<string>;
  /** failed attempts of entries not yet published */
  attempts: Map<string, number>;
  failures: number;
}

const reasonOf = (err: unknown) =>
  err instanceof Error ? ((err as { code?: string }).code ?? err.message) : String(err);

/**
 * One poll of one feed: the feed with If-Modified-Since; each entry not published before is fetched once and
 * published, oldest first. An entry is remembered only once published, so a failed fetch or publish is tried again
 * at the next poll (JetStream's message id and the app's report id drop a repeat), up to MAX_ENTRY_ATTEMPTS. A failed
 * entry does not fail the poll: the others are published, and the feed keeps its interval. Throws when the feed
 * itself cannot be read.
 */
export async function pollFeed(
  state: FeedState,
  options: Pick<PollerOptions, 'fetch' | 'publish' | 'onEvent'>,
  signal?: AbortSignal,
): Promise<{ published: number; failed: number }> {
  const headers: Record<string, string> = { accept: 'application/atom+xml, application/xml' };
  if (state.lastModified) headers['if-modified-since'] = state.lastModified;
  const res = await options.fetch(state.url, { headers, ...(signal ? { signal } : {}) });
  if (res.status === 304) {
    options.onEvent?.({ type: 'not-modified', url: state.url });
    return { published: 0, failed: 0 };
  }
  if (!res.ok) throw new Error(`feed-http-${res.status}`);
  const feed = new TextDecoder().decode(await readCapped(res));
  const entries = parseAtomFeed(feed);
  let published = 0;
  let failed = 0;
  // feeds list the newest first: publish in the order JMA issued them
  for (const entry of [...entries].reverse()) {
    if (state.seen.has(entry.id)) continue;
    try {
      const report = await options.fetch(entry.url, { ...(signal ? { signal } : {}) });
      if (!report.ok) throw new Error(`report-http-${report.status}`);
      const bytes = await readCapped(report);
      const msgId = `${sourceOf(bytes)}:${await sha256Hex(bytes)}`;
      await options.publish(bytes, msgId);
      state.seen.add(entry.id);
      state.attempts.delete(entry.id);
      published++;
      options.onEvent?.({ type: 'published', url: state.url, entryId: entry.id, msgId });
    } catch (err) {
      if (signal?.aborted) throw err;
      const attempts = (state.attempts.get(entry.id) ?? 0) + 1;
      const givenUp = attempts >= MAX_ENTRY_ATTEMPTS;
      if (givenUp) {
        state.seen.add(entry.id);
        state.attempts.delete(entry.id);
      } else {
        state.attempts.set(entry.id, attempts);
        failed++;
      }
      const reason = reasonOf(err);
      options.onEvent?.({ type: 'entry-failed', url: state.url, entryId: entry.id, reason, attempts, givenUp });
    }
  }
  // forget the oldest ids (a Set iterates in insertion order)
  for (const id of state.seen) {
    if (state.seen.size <= SEEN_LIMIT) break;
    state.seen.delete(id);
  }
  // a feed read in full is not asked for again until it changes; with an entry to retry, the next poll reads it again
  state.lastModified = failed ? null : res.headers.get('last-modified');
  return { published, failed };
}

/**
 * Polls each feed on its own loop: every interval (with ±10 % jitter, so that many instances do not poll in step),
 * doubling the wait after each failure in a row up to MAX_BACKOFF_MS. Off unless the caller starts it, with URLs from
 * its configuration.
 */
export function startPoller(options: PollerOptions): Poller {
  const floor = options.minIntervalMs ?? MIN_INTERVAL_MS;
  const interval = Math.max(floor, options.intervalMs ?? MIN_INTERVAL_MS);
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const abort = new AbortController();
  const jitter = (ms: number) => Math.round(ms * (0.9 + 0.2 * random()));

  const loop = async (url: string) => {
    const state: FeedState = { url, lastModified: null, seen: new Set(), attempts: new Map(), failures: 0 };
    while (!abort.signal.aborted) {
      let wait: number;
      try {
        const { published } = await pollFeed(state, options, abort.signal);
        state.failures = 0;
        wait = jitter(interval);
        options.onEvent?.({ type: 'polled', url, entries: state.seen.size, published, nextInMs: wait });
      } catch (err) {
        if (abort.signal.aborted) break;
        state.failures++;
        wait = jitter(Math.min(MAX_BACKOFF_MS, interval * 2 ** state.failures));
        options.onEvent?.({ type: 'failed', url, reason: reasonOf(err), failures: state.failures, retryInMs: wait });
      }
      await sleep(wait, abort.signal);
    }
  };
  const loops = options.urls.map((url) => loop(url));
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(loops);
    },
  };
}

import { type RefObject, useEffect, useRef, useState } from 'react';
import { liveUrl } from '../../../lib/events-since';
import { eventsUrl, liveEventNames, type Stale, staleFor } from './live-events';

export type LiveState = 'connecting' | 'open' | 'down';

/**
 * One live stream for what is being played (see openLiveStream). `liveRef.current` is true only while the stream is
 * open: the player refetches at page changes when it is not. Other ids to watch (the playlist's items loaded, or
 * changed) mean another stream.
 */
export function useLiveUpdates(opts: {
  enabled: boolean;
  playlistId: string | null;
  fileIds: readonly string[];
  onStale: (stale: Stale) => void;
}): { state: LiveState; liveRef: RefObject<boolean> } {
  const [state, setState] = useState<LiveState>('connecting');
  const liveRef = useRef(false);
  const onStale = useRef(opts.onStale);
  onStale.current = opts.onStale;
  const url = opts.enabled && typeof EventSource !== 'undefined' ? eventsUrl(opts.playlistId, opts.fileIds) : null;

  // The last state of the streams this player opened (null: none yet). A stream replaced while down (events were
  // being missed, for who knows how long) makes its successor's first open ask for everything.
  const lastState = useRef<LiveState | null>(null);

  useEffect(() => {
    if (!url) return;
    // The page's reads all came after its first one: changes the gateway heard of well before it are in them.
    const close = openLiveStream(liveUrl(url), {
      resyncOnFirstOpen: lastState.current === 'down',
      onState(next) {
        lastState.current = next;
        liveRef.current = next === 'open';
        setState(next);
      },
      onStale: (stale) => onStale.current(stale),
    });
    return () => {
      close();
      liveRef.current = false;
      // the next stream (other ids) is not open yet: refetching at page changes covers the gap
      setState('connecting');
    };
  }, [url]);

  return { state, liveRef };
}

/** The part of EventSource a live stream uses (a test passes its own). */
export interface EventSourceLike {
  readyState: number;
  onopen: ((this: EventSourceLike, ev: Event) => unknown) | null;
  onerror: ((this: EventSourceLike, ev: Event) => unknown) | null;
  addEventListener(name: string, listener: (e: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

const CLOSED = 2; // EventSource.CLOSED

/**
 * Opens an EventSource on `url` and keeps it open until the returned function is called. Each event calls onStale
 * with what to refetch. An open after a failure asks for everything once (events were missed meanwhile), and so
 * does the first open when `resyncOnFirstOpen` says the stream before this one was down. The gap between the
 * player's first reads (or its previous stream) and this stream's first open is the gateway's to cover: it tells a
 * stream that opens on ids changed just before to `resync` (GET /api/events). The browser reconnects by itself while
 * the stream is CONNECTING; a stream the server refused (CLOSED) is reopened here with a growing delay.
 */
export function openLiveStream(
  url: string,
  handlers: { resyncOnFirstOpen?: boolean; onState: (state: LiveState) => void; onStale: (stale: Stale) => void },
  create: EventSourceFactory = (u) => new EventSource(u, { withCredentials: true }) as unknown as EventSourceLike,
): () => void {
  let source: EventSourceLike | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let hadOpen = false;
  let stopped = false;

  const open = () => {
    const current = create(url);
    source = current;
    current.onopen = () => {
      if (stopped) return;
      const missed = hadOpen || failures > 0 || handlers.resyncOnFirstOpen === true;
      hadOpen = true;
      failures = 0;
      handlers.onState('open');
      if (missed) handlers.onStale({ kind: 'all' });
    };
    current.onerror = () => {
      if (stopped) return;
      handlers.onState('down');
      if (current.readyState === CLOSED) {
        failures += 1;
        current.close();
        reopenTimer = setTimeout(open, Math.min(30_000, 2000 * 2 ** Math.min(failures - 1, 4)));
      }
    };
    for (const name of liveEventNames) {
      current.addEventListener(name, (e) => {
        if (stopped) return;
        let data: unknown = null;
        try {
          data = JSON.parse(e.data);
        } catch {
          // a malformed line changes nothing
        }
        const stale = staleFor(name, data);
        if (stale) handlers.onStale(stale);
      });
    }
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(reopenTimer);
    source?.close();
  };
}

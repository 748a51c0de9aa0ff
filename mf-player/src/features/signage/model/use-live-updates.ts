import { type RefObject, useEffect, useRef, useState } from 'react';
import { eventsUrl, liveEventNames, type Stale, staleFor } from './live-events';

export type LiveState = 'connecting' | 'open' | 'down';

/**
 * One EventSource for what is being played. Each event calls onStale with what to refetch; a reconnect (resync,
 * or an open after a failure) asks for everything once. The browser reconnects by itself while the stream is
 * CONNECTING; a stream the server refused (CLOSED) is reopened here with a growing delay. `liveRef.current` is
 * true only while the stream is open: the player refetches at page changes when it is not.
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

  useEffect(() => {
    if (!url) return;
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let hadOpen = false;
    let stopped = false;

    const open = () => {
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        liveRef.current = true;
        setState('open');
        // events may have been missed while there was no stream
        if (hadOpen || failures > 0) onStale.current({ kind: 'all' });
        hadOpen = true;
        failures = 0;
      };
      source.onerror = () => {
        liveRef.current = false;
        setState('down');
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          failures += 1;
          source.close();
          reopenTimer = setTimeout(open, Math.min(30_000, 2000 * 2 ** Math.min(failures - 1, 4)));
        }
      };
      for (const name of liveEventNames) {
        source.addEventListener(name, (e) => {
          let data: unknown = null;
          try {
            data = JSON.parse((e as MessageEvent<string>).data);
          } catch {
            // a malformed line changes nothing
          }
          const stale = staleFor(name, data);
          if (stale) onStale.current(stale);
        });
      }
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(reopenTimer);
      source?.close();
      liveRef.current = false;
    };
  }, [url]);

  return { state, liveRef };
}

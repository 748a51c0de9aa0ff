import type { ImageError } from '@pagecast/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { imageStatusOf } from '../api/image-status';
import { retryDelay, type WaitingBoard } from './retry';
import { imageErrorOf } from './shown-report';

/** How a page's image went, by its address (a one-page loop keeps its drawn image). */
export interface PageImage {
  src: string;
  loaded: boolean;
  error: ImageError | null;
}

/** `src` asked again for the `attempt`th time: a new address, so neither the browser nor a cache hands back the failure. */
export const retrySrc = (src: string, attempt: number) =>
  attempt > 0 ? `${src}${src.includes('?') ? '&' : '?'}try=${attempt}` : src;

/**
 * The page images of the display: a failure is looked at again (forbidden, not found, undecodable or unreachable:
 * the fleet's health report of a broken image), then the image is asked again, backing off (retry.ts), forever while
 * the display still plays it; the slideshow does not wait: a failed page that is no longer on screen is asked again
 * in the background and draws when its turn comes back. `wanted`: the addresses the display still plays.
 */
export function usePageImages(src: string | null, wanted: readonly string[], board: WaitingBoard) {
  const [images, setImages] = useState<Record<string, PageImage>>({});
  const [attempts, setAttempts] = useState<Record<string, number>>({});
  const failures = useRef(new Map<string, number>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const current = useRef(src);
  current.current = src;
  const wantedRef = useRef(wanted);
  wantedRef.current = wanted;
  const stopped = useRef(false);

  const settle = useCallback(() => {
    if (timers.current.size === 0 && failures.current.size === 0) board.done('page-image');
  }, [board]);

  const loaded = useCallback(
    (s: string) => {
      failures.current.delete(s);
      clearTimeout(timers.current.get(s));
      timers.current.delete(s);
      settle();
      setImages((now) => ({ ...now, [s]: { src: s, loaded: true, error: null } }));
    },
    [settle],
  );

  const failed = useCallback(
    (s: string) => {
      if (stopped.current) return;
      void imageStatusOf(s).then((status) => {
        if (stopped.current) return;
        setImages((now) =>
          now[s]?.loaded && failures.current.get(s) === undefined
            ? now
            : { ...now, [s]: { src: s, loaded: false, error: imageErrorOf(status) } },
        );
      });
      if (timers.current.has(s)) return;
      const n = (failures.current.get(s) ?? 0) + 1;
      failures.current.set(s, n);
      const ms = retryDelay(n);
      board.wait('page-image', Date.now() + ms);
      timers.current.set(
        s,
        setTimeout(() => {
          timers.current.delete(s);
          if (stopped.current) return;
          // no longer played: forgotten
          if (!wantedRef.current.includes(s)) {
            failures.current.delete(s);
            return settle();
          }
          setAttempts((now) => ({ ...now, [s]: n }));
          // not on screen: asked in the background, so it is drawn (from the cache) when its turn comes back
          if (current.current !== s && typeof Image !== 'undefined') {
            const probe = new Image();
            probe.onload = () => loaded(s);
            probe.onerror = () => failed(s);
            probe.src = retrySrc(s, n);
          }
        }, ms),
      );
    },
    [board, loaded, settle],
  );

  useEffect(() => {
    stopped.current = false;
    const all = timers.current;
    return () => {
      stopped.current = true;
      for (const timer of all.values()) clearTimeout(timer);
      all.clear();
      board.done('page-image');
    };
  }, [board]);

  return {
    /** how the image at `s` went, or null while it has not drawn nor failed */
    imageOf: (s: string): PageImage | null => images[s] ?? null,
    /** the address the <img> of `s` asks (a new one for each try again) */
    srcOf: (s: string) => retrySrc(s, attempts[s] ?? 0),
    loaded,
    failed,
  };
}

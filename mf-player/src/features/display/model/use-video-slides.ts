// How the display's videos went, told the way a page image's are (the fleet's health report of a broken page): a
// video that played counts as drawn; one that fails is looked at again (its address's HTTP status: forbidden, not
// found, undecodable, unreachable), reported broken, then skipped so the display never stalls on it.
import { type ImageError, SHOWN_REPORT_MIN_SECONDS } from '@pagecast/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { imageStatusOf } from '../api/image-status';
import { imageErrorOf } from './shown-report';

/**
 * A failed video stays (its poster on screen) this long once its failure is known, then is skipped: the report of
 * what is shown is told at most once per SHOWN_REPORT_MIN_SECONDS window and only its last change, so the broken
 * page is told before the next slide replaces it; a playlist of only broken videos does not spin either.
 */
export const VIDEO_SKIP_AFTER_MS = SHOWN_REPORT_MIN_SECONDS * 1000 + 250;

export interface VideoState {
  loaded: boolean;
  error: ImageError | null;
}

/** `finished(step)`: the showing of that step is over (use-display-player.ts). */
export function useVideoSlides(finished: (step: number) => void) {
  const [states, setStates] = useState<Record<string, VideoState>>({});
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const stopped = useRef(false);
  useEffect(() => {
    stopped.current = false;
    const all = timers.current;
    return () => {
      stopped.current = true;
      for (const timer of all) clearTimeout(timer);
      all.clear();
    };
  }, []);

  /** the video at `url` is playing: drawn */
  const played = useCallback((url: string) => {
    setStates((now) => (now[url]?.loaded ? now : { ...now, [url]: { loaded: true, error: null } }));
  }, []);

  /** The video of the showing `step` failed: reported broken, then skipped (VIDEO_SKIP_AFTER_MS). */
  const failed = useCallback(
    (url: string, step: number) => {
      void imageStatusOf(url).then((status) => {
        if (stopped.current) return;
        setStates((now) => ({ ...now, [url]: { loaded: false, error: imageErrorOf(status) } }));
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          finished(step);
        }, VIDEO_SKIP_AFTER_MS);
        timers.current.add(timer);
      });
    },
    [finished],
  );

  return {
    /** how the video at `url` went, or null while it has neither played nor failed */
    stateOf: (url: string): VideoState | null => states[url] ?? null,
    played,
    failed,
  };
}

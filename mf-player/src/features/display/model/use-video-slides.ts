// How the display's videos went, told the way a page image's are (the fleet's health report of a broken page): a
// video that played counts as drawn; one that fails is looked at again (its address's HTTP status: forbidden, not
// found, undecodable, unreachable), reported broken, then skipped so the display never stalls on it. One whose time
// stopped advancing is reported frozen (at the second it stopped), then skipped the same way. The second each
// showing's video reached is kept (without a render) for its play record and the reports.
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
  /** its time stopped advancing at this second (VIDEO_FROZEN_SECONDS), in the showing `frozenStep` */
  frozenAt?: number;
  frozenStep?: number;
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

  /** the video at `url` is playing: drawn (and no longer frozen, if it was) */
  const played = useCallback((url: string) => {
    setStates((now) =>
      now[url]?.loaded && now[url]?.frozenAt === undefined ? now : { ...now, [url]: { loaded: true, error: null } },
    );
  }, []);

  /** the second each showing's video reached, by step (the last few steps: the current one and the one before) */
  const reached = useRef(new Map<number, number>());
  const timeAt = useCallback((step: number, second: number) => {
    const map = reached.current;
    map.set(step, second);
    for (const s of map.keys()) if (s < step - 2) map.delete(s);
  }, []);

  const skipLater = useCallback(
    (step: number) => {
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        finished(step);
      }, VIDEO_SKIP_AFTER_MS);
      timers.current.add(timer);
    },
    [finished],
  );

  /** The video of the showing `step` stopped advancing at `second`: reported frozen, then skipped. */
  const frozen = useCallback(
    (url: string, step: number, second: number) => {
      if (stopped.current) return;
      setStates((now) => ({ ...now, [url]: { loaded: true, error: null, frozenAt: second, frozenStep: step } }));
      skipLater(step);
    },
    [skipLater],
  );

  /** The video of the showing `step` failed: reported broken, then skipped (VIDEO_SKIP_AFTER_MS). */
  const failed = useCallback(
    (url: string, step: number) => {
      void imageStatusOf(url).then((status) => {
        if (stopped.current) return;
        setStates((now) => ({ ...now, [url]: { loaded: false, error: imageErrorOf(status) } }));
        skipLater(step);
      });
    },
    [skipLater],
  );

  return {
    /** how the video at `url` went, or null while it has neither played nor failed */
    stateOf: (url: string): VideoState | null => states[url] ?? null,
    /** the second the showing `step`'s video froze at (a later showing of the same video is not frozen by it) */
    frozenAt: (url: string, step: number): number | undefined =>
      states[url]?.frozenStep === step ? states[url]?.frozenAt : undefined,
    played,
    failed,
    frozen,
    /** the showing `step`'s video is at `second` */
    timeAt,
    /** the second the showing `step`'s video reached, null when it told none */
    reachedOf: (step: number): number | null => reached.current.get(step) ?? null,
  };
}

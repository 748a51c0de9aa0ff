import { backoffDelay } from '@pagecast/contracts';
import type { pino } from 'pino';

export interface StreamFollower {
  /** Ends the loop: no run starts after this (the caller closes the run in progress, which it holds). */
  stop(): void;
  /** Resolves when the loop has ended. */
  done: Promise<void>;
}

/** The first wait after a failure, and the longest: each failure in a row doubles it, with jitter. */
export const FOLLOW_RETRY_MIN_MS = 500;
export const FOLLOW_RETRY_MAX_MS = 10_000;

/**
 * Keeps reading a stream for as long as it is wanted: `run` opens a consumer (or a watch) and reads it until it ends
 * or fails; then it runs again, after a wait that doubles with each failure in a row (from `minMs` to `maxMs`, each
 * wait drawn between half and all of it, so many instances that lost the same server do not come back in step).
 * `run` calls `live()` once its consumer is in place: the next failure waits `minMs` again. A failure is logged with
 * what the loop waits for and how long; `active` (default: always) ends the loop when it turns false.
 */
export function followStream(
  run: (live: () => void) => Promise<void>,
  opts: {
    logger?: pino.Logger;
    /** what a failure means the loop waits for, in the log ("the screens service's status bucket") */
    waitingFor: string;
    /** its name in the log */
    name: string;
    level?: 'error' | 'warn' | 'debug';
    minMs?: number;
    maxMs?: number;
    active?: () => boolean;
    random?: () => number;
  },
): StreamFollower {
  const minMs = opts.minMs ?? FOLLOW_RETRY_MIN_MS;
  const maxMs = opts.maxMs ?? FOLLOW_RETRY_MAX_MS;
  const random = opts.random ?? Math.random;
  const active = opts.active ?? (() => true);
  let stopped = false;
  let failures = 0;
  let wake: (() => void) | undefined;
  const going = () => !stopped && active();
  const done = (async () => {
    while (going()) {
      try {
        await run(() => {
          failures = 0;
        });
      } catch (err) {
        if (!going()) break; // stopped, or no longer wanted: the failure is the closing itself
        failures++;
        const waitMs = backoffDelay(failures, minMs, maxMs, random);
        opts.logger?.[opts.level ?? 'error'](
          { err, failures, waitMs },
          `${opts.name}: waiting for ${opts.waitingFor}; trying again in ${(waitMs / 1000).toFixed(1)} s`,
        );
        if (going()) await pause(waitMs);
        continue;
      }
      // a run that ended without a failure (its consumer closed under it): again after the shortest wait
      if (going()) await pause(minMs);
    }
  })();
  function pause(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
    });
  }
  return {
    stop() {
      stopped = true;
      wake?.();
    },
    done,
  };
}

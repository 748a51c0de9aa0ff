// A display never gives up: every request it makes is tried again after a failure (a 429 when many displays behind
// one address reboot at once, a 503, a network cut), forever, waiting longer each time up to a ceiling, each wait
// drawn at random (so displays that failed together do not come back together), and it says on screen what it is
// waiting for (`WaitingBoard`, shown by the page).
import { backoffDelay } from '@pagecast/contracts';
import { useSyncExternalStore } from 'react';

/** The first wait after a failure. */
export const RETRY_FIRST_MS = 1000;
/** The longest wait: a display whose network came back asks again within this. */
export const RETRY_MAX_MS = 15_000;

/**
 * The wait before try `failures + 1` (failures ≥ 1): 1 s, 2 s, 4 s... up to `maxMs`, drawn between half and all of
 * it ("equal jitter": never zero, so a crowd spreads out without hammering).
 */
export function retryDelay(failures: number, random: () => number = Math.random, maxMs = RETRY_MAX_MS): number {
  return backoffDelay(failures, RETRY_FIRST_MS, maxMs, random);
}

/** What the display is waiting for, most important first (the page shows the first that waits). */
export const WAITING_FOR = [
  'screen',
  'pairing-code',
  'pairing-status',
  'content',
  'page-image',
  'live',
  'heartbeat',
  'plays',
] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];
export interface Waiting {
  what: WaitingFor;
  /** when the next try starts (ms since the epoch) */
  retryAt: number;
}

/** The requests that are between two tries, for the line on screen. */
export function createWaitingBoard() {
  const waits = new Map<WaitingFor, number>();
  const listeners = new Set<() => void>();
  let first: Waiting | null = null;
  const changed = () => {
    const what = WAITING_FOR.find((w) => waits.has(w));
    const next = what ? { what, retryAt: waits.get(what) as number } : null;
    if (next?.what === first?.what && next?.retryAt === first?.retryAt) return;
    first = next;
    for (const listener of listeners) listener();
  };
  return {
    /** `what` failed; its next try is at `retryAt`. */
    wait(what: WaitingFor, retryAt: number) {
      waits.set(what, retryAt);
      changed();
    },
    /** `what` answered (or is no longer asked). */
    done(what: WaitingFor) {
      if (waits.delete(what)) changed();
    },
    /** The most important wait, or null. */
    first: () => first,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type WaitingBoard = ReturnType<typeof createWaitingBoard>;

export const useWaiting = (board: WaitingBoard) => useSyncExternalStore(board.subscribe, board.first, board.first);

/**
 * Runs `request` until it answers: after each failure it waits `retryDelay` (noted on `board` as `what`) and tries
 * again, forever, unless the failure is `permanent` (thrown to the caller, e.g. a 401: unpaired) or `signal` is
 * aborted (then it rejects with the signal's reason and asks no more).
 */
export async function retrying<T>(
  what: WaitingFor,
  request: () => Promise<T>,
  opts: {
    board: WaitingBoard;
    signal: AbortSignal;
    permanent?: (err: unknown) => boolean;
    /** after each failure, before the wait */
    onFailure?: (err: unknown, failures: number) => void;
  },
): Promise<T> {
  const { board, signal } = opts;
  for (let failures = 1; ; failures++) {
    signal.throwIfAborted();
    try {
      const answer = await request();
      signal.throwIfAborted();
      board.done(what);
      return answer;
    } catch (err) {
      signal.throwIfAborted();
      if (opts.permanent?.(err)) {
        board.done(what);
        throw err;
      }
      opts.onFailure?.(err, failures);
      const ms = retryDelay(failures);
      board.wait(what, Date.now() + ms);
      await sleep(ms, signal);
    }
  }
}

/** Resolves after `ms`, or rejects at once when `signal` is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

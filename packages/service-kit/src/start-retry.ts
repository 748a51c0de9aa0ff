// A service starting beside its servers (a NATS cluster still electing its JetStream leader, a database or object
// store coming up in the same compose run) must wait for them, not exit on the first time-out: each start-up step
// is tried again, waiting longer each time, with one log line per failure, until START_TIMEOUT_MS has passed since
// the service began to start; only then does the start fail, saying what it waited for.
import { backoffDelay } from '@pagecast/contracts';
import type { pino } from 'pino';

/** How long a start waits for its servers in all (START_TIMEOUT_MS overrides it). */
export const DEFAULT_START_TIMEOUT_MS = 120_000;
const FIRST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 5000;

/** The wait after `failures` failures: 250 ms doubling to 5 s, drawn between half and all of it (no lockstep). */
export function startRetryDelay(failures: number, random: () => number = Math.random): number {
  return backoffDelay(failures, FIRST_WAIT_MS, LONGEST_WAIT_MS, random);
}

/** Thrown when a server was not there within the bound; `cause` is the last failure. */
export class StartTimeoutError extends Error {
  constructor(what: string, ms: number, cause: unknown) {
    super(`${what} not reachable within ${Math.round(ms / 1000)} s of start: ${(cause as Error)?.message ?? cause}`, {
      cause,
    });
    this.name = 'StartTimeoutError';
  }
}

export interface StartRetry {
  logger: pino.Logger;
  /** when the start began (ms); the bound counts from it, for every step together */
  startedAt: number;
  timeoutMs: number;
}

/** A start-up's retry settings: the bound counts from now. */
export const startRetry = (logger: pino.Logger, timeoutMs = DEFAULT_START_TIMEOUT_MS): StartRetry => ({
  logger,
  startedAt: Date.now(),
  timeoutMs,
});

/**
 * Runs `step` until it succeeds; a failure is logged ("<what> not ready, trying again in N ms") and tried again
 * after `startRetryDelay`, until the bound: then StartTimeoutError (logged as an error). `retry` undefined: one
 * try, as before (a caller outside a start-up).
 */
export async function untilReady<T>(
  what: string,
  step: () => Promise<T>,
  retry: StartRetry | undefined,
  /** a failure that waiting cannot mend (refused keys, a missing stream): thrown at once */
  permanent: (err: unknown) => boolean = () => false,
): Promise<T> {
  if (!retry) return step();
  for (let failures = 1; ; failures++) {
    try {
      const value = await step();
      if (failures > 1) retry.logger.info({ what, attempts: failures }, `${what} ready`);
      return value;
    } catch (err) {
      if (permanent(err)) throw err;
      const waited = Date.now() - retry.startedAt;
      const wait = startRetryDelay(failures);
      if (waited + wait > retry.timeoutMs) {
        const error = new StartTimeoutError(what, retry.timeoutMs, err);
        retry.logger.error({ err, what, attempts: failures, waitedMs: waited }, error.message);
        throw error;
      }
      retry.logger.warn(
        { err: { message: (err as Error)?.message }, what, attempt: failures, waitedMs: waited, retryInMs: wait },
        `${what} not ready at start, trying again in ${wait} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

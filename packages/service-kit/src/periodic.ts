import type { Logger } from './logger';

/**
 * Runs `job` every `intervalMs`, never two at once (a tick while one runs is skipped); a failure is logged and the
 * next tick tries again. `stop` ends the ticks and waits for a run in progress, so a service closes after its job
 * has finished, not in the middle of it. Billing's renewals and marketplace's licence expiry run this way; account's
 * sweep of expired records also runs once at start (`runAtStart`).
 */
export function runPeriodically(
  intervalMs: number,
  job: () => Promise<unknown>,
  opts: { logger: Logger; name: string; runAtStart?: boolean },
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= job()
      .catch((err: unknown) => opts.logger.warn({ err }, `${opts.name} failed; the next tick retries`))
      .finally(() => {
        running = undefined;
      });
  };
  if (opts.runAtStart) tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

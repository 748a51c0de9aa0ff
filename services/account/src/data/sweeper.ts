import type { Logger } from '@pagecast/service-kit';
import type { Repositories } from './index';

/** Removes expired sessions, rate-limit attempts and used-token claims now and then (no TTL indexes on FerretDB). */
export function startSweeper(data: Repositories, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const pass = async () => {
    const sessions = await data.sessions.sweepExpired();
    const attempts = await data.rateLimits.sweepExpired();
    const claims = await data.claims.sweepExpired();
    if (sessions || attempts || claims) logger.info({ sessions, attempts, claims }, 'swept expired records');
  };
  const tick = () => {
    running ??= pass()
      .catch((err: unknown) => logger.warn({ err }, 'sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

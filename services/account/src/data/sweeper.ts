import { type Claims, type Logger, runPeriodically } from '@pagecast/service-kit';
import type { RateLimitRepository } from './rate-limits';
import type { SessionRepository } from './sessions';
import type { UserRepository } from './users';

/** What the sweeper keeps in order (the service's Repositories has them all). */
export interface SweptStores {
  sessions: SessionRepository;
  rateLimits: RateLimitRepository;
  claims: Claims;
  users: UserRepository;
}

/**
 * Removes expired sessions, rate-limit attempts and used-token claims (no TTL indexes on FerretDB), and writes the
 * members' missing address -> id hints: for every member on the first pass after a start, then for the members
 * created in the last two intervals. Runs at start, then every `intervalMs`.
 */
export function startSweeper(data: SweptStores, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let everyMemberRepaired = false;
  return runPeriodically(
    intervalMs,
    async () => {
      const sessions = await data.sessions.sweepExpired();
      const attempts = await data.rateLimits.sweepExpired();
      const claims = await data.claims.sweepExpired();
      const hints = await data.users.repairEmailHints(
        everyMemberRepaired ? new Date(Date.now() - 2 * intervalMs) : undefined,
      );
      everyMemberRepaired = true;
      if (sessions || attempts || claims || hints) {
        logger.info({ sessions, attempts, claims, hints }, 'swept expired records and wrote missing e-mail hints');
      }
    },
    { logger, name: 'the sweep of expired records', runAtStart: true },
  );
}

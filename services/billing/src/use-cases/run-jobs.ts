import type { ServiceContext } from '../context';
import { announcePending } from './announce-pending';
import { renewMemberships } from './renew-memberships';
import { sweepTransfers } from './transfer-points';

/**
 * One tick of the background jobs, run by one instance at a time: the instance that inserts the tick's lease runs
 * them (a lease that expires, so a crashed runner does not block the next tick). Every job is idempotent on its own
 * (keys per member and month, per transfer leg), so a second run would change nothing.
 */
export async function runJobs(ctx: ServiceContext, opts: { force?: boolean } = {}) {
  const jobs = async () => {
    const transfers = await sweepTransfers(ctx);
    const renewals = await renewMemberships(ctx);
    const announced = await announcePending(ctx);
    await ctx.data.claims.sweepExpired();
    return { transfers, renewals, announced };
  };
  if (opts.force) return jobs();
  const run = await ctx.data.claims.tryLease('jobs-lease', Math.max(ctx.config.JOBS_INTERVAL_MS, 60_000), jobs);
  return run.held ? run.value : null;
}

import type { ServiceContext } from '../context';
import { expireLicences } from './expire-licences';
import { finishPendingPurchases } from './finish-pending-purchases';

/**
 * One pass of the periodic jobs, run by one instance per time slot (a lease taken by unique insert): the sweeper of
 * pending purchases, then licence expiry. `force` (the test clock) runs them without a lease.
 */
export async function runJobsOnce(ctx: ServiceContext, opts: { force?: boolean } = { force: true }) {
  if (!opts.force) {
    const interval = ctx.config.JOBS_INTERVAL_MS;
    const slot = Math.floor(Date.now() / interval);
    // One instance per slot: the kit's insert-once claim, kept until the slot after next, then swept.
    const lease = await ctx.data.claims.claim(`jobs:${slot}`, { expire: new Date((slot + 2) * interval) });
    if (!lease) return { ran: false, expired: 0, completed: 0, abandoned: 0 };
    await ctx.data.claims.sweepExpired();
  }
  const swept = await finishPendingPurchases(ctx);
  const expired = await expireLicences(ctx);
  return { ran: true, expired, ...swept };
}

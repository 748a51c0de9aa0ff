import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context';
import { expireLicences } from './expire-licences';
import { finishPendingPurchases } from './finish-pending-purchases';

const holder = randomUUID();

/**
 * One pass of the periodic jobs, run by one instance per time slot (a lease taken by unique insert): the sweeper of
 * pending purchases, then licence expiry. `force` (the test clock) runs them without a lease.
 */
export async function runJobsOnce(ctx: ServiceContext, opts: { force?: boolean } = { force: true }) {
  if (!opts.force) {
    const slot = Math.floor(Date.now() / ctx.config.JOBS_INTERVAL_MS);
    if (!(await ctx.data.leases.take('jobs', slot, holder)))
      return { ran: false, expired: 0, completed: 0, abandoned: 0 };
  }
  const swept = await finishPendingPurchases(ctx);
  const expired = await expireLicences(ctx);
  return { ran: true, expired, ...swept };
}

import type { ServiceContext } from '../context';
import { announceMembership } from './membership-state';
import { announceEntry } from './post-entry';

/** Entries and plan versions a crash left unannounced (older than a few seconds) are announced now (stable ids). */
export async function announcePending(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - 5_000);
  let n = 0;
  for (const entry of await ctx.data.ledger.unannounced(before)) {
    await announceEntry(ctx, entry);
    n++;
  }
  for (const doc of await ctx.data.memberships.unannounced(before)) {
    await announceMembership(ctx, doc);
    n++;
  }
  return n;
}

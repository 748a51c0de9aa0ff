import { subjects } from '@pagecast/contracts';
import { nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';

/** Announces the end of every licence whose time is up (marketplace.licence.expired.v1), once per licence. */
export async function expireLicences(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  let count = 0;
  for (const l of await ctx.data.purchases.dueForExpiry(now)) {
    // The event first, under an id derived from the licence: a crash before the mark repeats the same event.
    await ctx.outbox.add(
      subjects.licenceExpired,
      { purchaseId: l._id, buyerId: l.buyerId, fileId: l.fileId, expiredAt: l.expiresAt.toISOString() },
      { id: nameUuid(`licence-expired:${l._id}`, 'v5') },
    );
    await ctx.data.purchases.markExpired(l._id, now);
    count++;
  }
  return count;
}

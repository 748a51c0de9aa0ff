import { AppError, nameUuid } from '@pagecast/service-kit';
import { subjects } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { MembershipDoc, Versioned } from '../data';
import { type Membership, upgraded } from '../domain/membership';

/** The ledger key of the upgrade that pays for version `seq` of a member's plan. */
export const upgradeKey = (memberId: string, seq: number) => `upgrade:${memberId}:${seq}`;
/**
 * The ledger key of a renewal charge: the member and the YYYYMM of the renewal's due date. A member renews once a
 * month (on their own day), so the month names the period; plans stored before renewal dates renewed on the 1st
 * under the same key, so a charge made before the change is found again.
 */
export const renewalKey = (memberId: string, month: number) => `renewal:${memberId}:${month}`;

const LOCK_MS = 15_000;

/**
 * Runs `fn` holding the member's plan lease (an insert-once claim that expires, so a crashed holder does not block
 * for long). Plan changes of one member never interleave: two tabs upgrading at once → one waits, then decides on
 * the plan the other left. A holder that does not get it within `waitMs` → MEMBERSHIP_BUSY.
 */
export function withMemberLock<T>(ctx: ServiceContext, memberId: string, fn: () => Promise<T>, waitMs = 5_000) {
  return ctx.data.claims.withLease(`member-lock:${memberId}`, fn, {
    ms: LOCK_MS,
    waitMs,
    busy: () => new AppError('MEMBERSHIP_BUSY'),
    backoff: () => 20 + Math.random() * 40,
  });
}

export async function announceMembership(ctx: ServiceContext, doc: MembershipDoc): Promise<void> {
  await ctx.outbox.add(
    subjects.membershipChanged,
    {
      userId: doc.memberId,
      tier: doc.tier,
      pendingDowngradeTier: doc.pendingDowngradeTier,
      downgradeEffectiveMonth: doc.downgradeEffectiveMonth,
    },
    { id: nameUuid(`billing.membership.changed:${doc._id}`, 'v5') },
  );
  await ctx.data.memberships.markAnnounced(doc._id);
}

/** Writes version seq+1 and announces it; false when another writer got there first. */
export async function putMembership(ctx: ServiceContext, cur: Versioned, next: Membership, reason: string) {
  const doc = await ctx.data.memberships.put(next, cur.seq + 1, reason, ctx.clock.now());
  if (doc) {
    await announceMembership(ctx, doc).catch((err: unknown) =>
      ctx.logger.warn({ err, memberId: doc.memberId }, 'announcement deferred to the sweep'),
    );
  }
  return doc !== null;
}

/**
 * The member's plan, with an upgrade a crash left half done finished: an upgrade charge for the next version means
 * the points were paid, so the plan it paid for follows.
 */
export async function currentMembership(ctx: ServiceContext, memberId: string): Promise<Versioned | null> {
  for (;;) {
    const cur = await ctx.data.memberships.current(memberId);
    if (!cur) return null;
    const paid = await ctx.data.ledger.byKey(upgradeKey(memberId, cur.seq + 1));
    if (!paid) return cur;
    const tier = paid.meta?.tier === 'creator' ? 'creator' : 'standard';
    await putMembership(ctx, cur, upgraded(cur, tier, paid.createdAt), `upgrade to ${tier}`);
  }
}

export async function requireMembership(ctx: ServiceContext, memberId: string): Promise<Versioned> {
  const m = await currentMembership(ctx, memberId);
  if (!m) throw new AppError('NOT_FOUND');
  return m;
}

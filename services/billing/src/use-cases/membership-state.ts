import { AppError, nameUuid, publishAudit } from '@pagecast/service-kit';
import { AUDIT_SYSTEM_ACTORS, type AuditAction, subjects } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { MembershipDoc, Versioned } from '../data';
import type { PlanAudit } from '../data/models';
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

/** A plan as the audit log keeps it: the tier and a pending downgrade (codes and numbers). */
const planSnapshot = (m: Pick<Membership, 'tier' | 'pendingDowngradeTier' | 'downgradeEffectiveMonth'>) => ({
  tier: m.tier,
  pendingDowngradeTier: m.pendingDowngradeTier,
  downgradeEffectiveMonth: m.downgradeEffectiveMonth,
});

/** The renewal job as the actor of the plan changes it makes (no member, no client address). */
export const billingJob = (action: AuditAction): PlanAudit => ({
  action,
  actorUserId: AUDIT_SYSTEM_ACTORS.billing,
  address: '',
});

/**
 * The audit note of a change from `cur` to `next`, or null when the plan the log keeps (tier, pending downgrade) is
 * the same (a renewal on the same plan is no change of it).
 */
export function planChange(cur: Membership, next: Membership, audit: PlanAudit): PlanAudit | null {
  return JSON.stringify(planSnapshot(cur)) === JSON.stringify(planSnapshot(next)) ? null : audit;
}

/**
 * The version's audit entry, in its workspace (the member's: a workspace's id is its owner's), then its event.
 * Published before the version is marked announced, so a crash before either is repaired by the sweep; its id
 * derives from the version's (`key`), so the sweep's repeat is the same entry, chained once.
 */
export async function announceMembership(ctx: ServiceContext, doc: MembershipDoc): Promise<void> {
  if (doc.audit) {
    const prev = await ctx.data.memberships.version(doc.memberId, doc.seq - 1);
    await publishAudit(
      ctx.outbox,
      'billing',
      {
        workspaceId: doc.memberId,
        actor: { userId: doc.audit.actorUserId, address: doc.audit.address },
        action: doc.audit.action,
        object: { type: 'plan', id: doc.memberId },
        before: prev && planSnapshot(prev),
        after: {
          ...planSnapshot(doc),
          ...(doc.audit.pointsCharged !== undefined ? { pointsCharged: doc.audit.pointsCharged } : {}),
        },
        key: doc._id,
      },
      doc.createdAt,
    );
  }
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

/**
 * Writes version seq+1 and announces it (with its audit entry when `audit` is given); false when another writer got
 * there first.
 */
export async function putMembership(
  ctx: ServiceContext,
  cur: Versioned,
  next: Membership,
  reason: string,
  audit: PlanAudit | null = null,
) {
  const doc = await ctx.data.memberships.put(next, cur.seq + 1, reason, ctx.clock.now(), audit);
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
    await putMembership(ctx, cur, upgraded(cur, tier, paid.createdAt), `upgrade to ${tier}`, upgradeAudit(paid));
  }
}

/** An upgrade's audit note, from its charge: who paid (the member who asked, kept in the charge) and how much. */
export function upgradeAudit(charge: { accountId: string; amount: number; meta: Record<string, unknown> | null }) {
  const by = charge.meta?.by;
  const address = charge.meta?.address;
  return {
    action: 'plan.upgraded' as const,
    actorUserId: typeof by === 'string' ? by : charge.accountId,
    address: typeof address === 'string' ? address : '',
    pointsCharged: -charge.amount,
  };
}

export async function requireMembership(ctx: ServiceContext, memberId: string): Promise<Versioned> {
  const m = await currentMembership(ctx, memberId);
  if (!m) throw new AppError('NOT_FOUND');
  return m;
}

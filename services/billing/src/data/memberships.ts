import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Membership } from '../domain/membership';
import type { MembershipDoc, Models, PlanAudit } from './models';

export type Versioned = Membership & { seq: number };

const toMembership = (d: MembershipDoc): Versioned => ({
  memberId: d.memberId,
  seq: d.seq,
  tier: d.tier,
  registeredAt: d.registeredAt,
  pendingDowngradeTier: d.pendingDowngradeTier,
  downgradeEffectiveMonth: d.downgradeEffectiveMonth,
  paidMonth: d.paidMonth,
  // absent on a plan stored before renewal anchors: renews on the 1st (the old rule), no migration needed
  renewalAnchor: d.renewalAnchor ?? null,
  notice: d.notice,
});

/**
 * Plans, versioned: each change inserts entry seq n+1 of the member under a unique (memberId, seq); a writer that
 * loses the race gets `false` and decides again on the new plan (no update, so no lost update on FerretDB).
 */
export function createMemberships({ memberships }: Models) {
  return {
    async current(memberId: string): Promise<Versioned | null> {
      const doc = await memberships.findOne({ memberId }).sort({ seq: -1 }).lean<MembershipDoc>();
      return doc ? toMembership(doc) : null;
    },
    /** Inserts version `seq`; false when another writer took it first. */
    async put(
      m: Membership,
      seq: number,
      reason: string,
      now = new Date(),
      audit: PlanAudit | null = null,
    ): Promise<MembershipDoc | null> {
      const doc: MembershipDoc = {
        _id: randomUUID(),
        memberId: m.memberId,
        seq,
        tier: m.tier,
        registeredAt: m.registeredAt,
        pendingDowngradeTier: m.pendingDowngradeTier,
        downgradeEffectiveMonth: m.downgradeEffectiveMonth,
        paidMonth: m.paidMonth,
        renewalAnchor: m.renewalAnchor,
        notice: m.notice,
        reason,
        createdAt: now,
        announced: false,
        audit,
      };
      try {
        await memberships.create(doc);
        return doc;
      } catch (err) {
        if (isDuplicateKeyError(err)) return null;
        throw err;
      }
    },
    /** Version `seq` of the member's plan (the one before a change, for its audit entry), or null. */
    version: (memberId: string, seq: number) => memberships.findOne({ memberId, seq }).lean<MembershipDoc>(),
    /**
     * Every member's newest plan, from one read of the plans (the fields a job decides on). The monthly job checks
     * them in memory and locks only the members that need something; it reads each of those again under its lock.
     */
    async newestOfAll(): Promise<Versioned[]> {
      const rows = await memberships
        .find({})
        .select({
          memberId: 1,
          seq: 1,
          tier: 1,
          registeredAt: 1,
          pendingDowngradeTier: 1,
          downgradeEffectiveMonth: 1,
          paidMonth: 1,
          renewalAnchor: 1,
          notice: 1,
        })
        .lean<MembershipDoc[]>();
      const newest = new Map<string, MembershipDoc>();
      for (const r of rows) {
        const seen = newest.get(r.memberId);
        if (!seen || r.seq > seen.seq) newest.set(r.memberId, r);
      }
      return [...newest.values()].map(toMembership);
    },
    unannounced(olderThan: Date, limit = 200) {
      return memberships
        .find({ announced: false, createdAt: { $lte: olderThan } })
        .sort({ createdAt: 1 })
        .limit(limit)
        .lean<MembershipDoc[]>();
    },
    async markAnnounced(id: string) {
      await memberships.updateOne({ _id: id }, { $set: { announced: true } });
    },
  };
}
export type Memberships = ReturnType<typeof createMemberships>;

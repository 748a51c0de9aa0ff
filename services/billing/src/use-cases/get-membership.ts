import type { MembershipState, MembershipStatus } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { Versioned } from '../data';
import { monthlyPrice, nextRenewal, trialEndsAt, upgradeOffer, upgradeTargets } from '../domain/membership';
import { requireMembership } from './membership-state';

/** The plan as the client sees it, with its next renewal at `now` (date and points). */
export function toMembershipState(m: Versioned, balance: number, now: Date): MembershipState {
  const renewal = nextRenewal(m, now);
  return {
    id: m.memberId,
    membershipTier: m.tier,
    points: balance,
    pendingDowngradeTier: m.pendingDowngradeTier,
    downgradeEffectiveMonth: m.downgradeEffectiveMonth,
    renewsAt: renewal?.at.toISOString() ?? null,
    renewalPoints: renewal?.points ?? null,
  };
}

export async function getMembership(ctx: ServiceContext, memberId: string): Promise<MembershipStatus> {
  const m = await requireMembership(ctx, memberId);
  const balance = await ctx.data.ledger.balance(memberId);
  const now = ctx.clock.now();
  return {
    ...toMembershipState(m, balance, now),
    trialEndsAt: m.tier === 'trial' ? trialEndsAt(m).toISOString() : null,
    monthlyPrice: monthlyPrice(m.tier),
    notice: m.notice,
    upgradeOffers: upgradeTargets(m).map((target) => {
      const offer = upgradeOffer(target, now);
      return { ...offer, renewsAt: offer.renewsAt.toISOString() };
    }),
  };
}

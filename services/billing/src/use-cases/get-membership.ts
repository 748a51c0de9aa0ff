import type { MembershipState, MembershipStatus } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { Versioned } from '../data';
import { monthlyPrice, nextRenewalAt, trialEndsAt } from '../domain/membership';
import { requireMembership } from './membership-state';

export function toMembershipState(m: Versioned, balance: number): MembershipState {
  return {
    id: m.memberId,
    membershipTier: m.tier,
    points: balance,
    pendingDowngradeTier: m.pendingDowngradeTier,
    downgradeEffectiveMonth: m.downgradeEffectiveMonth,
  };
}

export async function getMembership(ctx: ServiceContext, memberId: string): Promise<MembershipStatus> {
  const m = await requireMembership(ctx, memberId);
  const balance = await ctx.data.ledger.balance(memberId);
  const now = ctx.clock.now();
  return {
    ...toMembershipState(m, balance),
    trialEndsAt: m.tier === 'trial' ? trialEndsAt(m).toISOString() : null,
    nextRenewalAt: nextRenewalAt(m, now)?.toISOString() ?? null,
    monthlyPrice: monthlyPrice(m.tier),
    notice: m.notice,
  };
}

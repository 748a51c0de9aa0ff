import { constants, type MembershipTier } from '@pagecast/contracts';
import { monthKey, monthKeyStart, nextMonthKey, nextMonthStart } from './months';

/** A member's plan as billing keeps it: one versioned entry per change (see data/memberships.ts). */
export interface Membership {
  memberId: string;
  tier: MembershipTier;
  registeredAt: Date;
  pendingDowngradeTier: MembershipTier | null;
  /** YYYYMM the pending downgrade takes effect */
  downgradeEffectiveMonth: number | null;
  /** YYYYMM (Tokyo) of the last month the plan was paid for (upgrade or renewal); null = never */
  paidMonth: number | null;
  notice: 'trial-ended' | 'renewal-failed' | null;
}

export type MembershipRefusal =
  | 'UPGRADE_NOT_ALLOWED'
  | 'DOWNGRADE_NOT_ALLOWED'
  | 'DOWNGRADE_ALREADY_PENDING'
  | 'NO_PENDING_DOWNGRADE';

const upgrades = constants.allowedUpgrades as Partial<Record<MembershipTier, readonly MembershipTier[]>>;
const downgrades = constants.allowedDowngrades as Partial<Record<MembershipTier, readonly MembershipTier[]>>;
const paidTiers: readonly MembershipTier[] = ['standard', 'creator', '3000point'];
const monthlyPrices: Partial<Record<MembershipTier, number>> = {
  standard: constants.monthlyPlanPrices.standard,
  creator: constants.monthlyPlanPrices.creator,
  // The legacy 3000point plan is charged like standard (its files limit is standard's).
  '3000point': constants.monthlyPlanPrices.standard,
};

export const TRIAL_MS = constants.trialDays * 24 * 3600_000;

/** Points an upgrade costs, paid at once (spec point 4). */
export function upgradeCost(tier: 'standard' | 'creator'): number {
  return constants.upgradeCosts[tier];
}

/** Points a plan costs each month (0 for free, trial and 300point). */
export function monthlyPrice(tier: MembershipTier): number {
  return monthlyPrices[tier] ?? 0;
}

export function isPaidTier(tier: MembershipTier): boolean {
  return paidTiers.includes(tier);
}

export function trialEndsAt(m: Pick<Membership, 'registeredAt'>): Date {
  return new Date(m.registeredAt.getTime() + TRIAL_MS);
}

/** Why an upgrade is refused, or null: free/trial → standard or creator, standard → creator; no pending downgrade. */
export function upgradeRefusal(m: Membership, target: 'standard' | 'creator'): MembershipRefusal | null {
  if (m.pendingDowngradeTier) return 'UPGRADE_NOT_ALLOWED';
  return upgrades[m.tier]?.includes(target) ? null : 'UPGRADE_NOT_ALLOWED';
}

/** The plan after a paid upgrade: paid for the current month (the 1st's renewal charges next month). */
export function upgraded(m: Membership, target: 'standard' | 'creator', now: Date): Membership {
  return {
    ...m,
    tier: target,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    paidMonth: monthKey(now),
    notice: null,
  };
}

export function downgradeRefusal(m: Membership, target: 'free' | 'standard'): MembershipRefusal | null {
  if (m.pendingDowngradeTier) return 'DOWNGRADE_ALREADY_PENDING';
  return downgrades[m.tier]?.includes(target) ? null : 'DOWNGRADE_NOT_ALLOWED';
}

/** A downgrade reserved for the 1st of next month (Tokyo). */
export function withDowngrade(m: Membership, target: 'free' | 'standard', now: Date): Membership {
  return { ...m, pendingDowngradeTier: target, downgradeEffectiveMonth: nextMonthKey(now) };
}

export function withoutDowngrade(m: Membership): Membership {
  return { ...m, pendingDowngradeTier: null, downgradeEffectiveMonth: null };
}

/** The trial ends 30 days after registration and becomes free (the notice tells the member). */
export function trialExpired(m: Membership, now: Date): Membership | null {
  if (m.tier !== 'trial' || now.getTime() < trialEndsAt(m).getTime()) return null;
  return { ...m, tier: 'free', notice: 'trial-ended' };
}

/**
 * What the monthly renewal of month `month` (YYYYMM) must do: null = nothing (already done, or not a paid plan);
 * otherwise the plan after a pending downgrade that is due, and the charge for the month (0 = nothing to charge).
 */
export function renewalPlan(m: Membership, month: number): { plan: Membership; charge: number } | null {
  if (m.paidMonth !== null && m.paidMonth >= month) return null;
  let plan = m;
  if (m.pendingDowngradeTier && m.downgradeEffectiveMonth !== null && m.downgradeEffectiveMonth <= month) {
    plan = { ...m, tier: m.pendingDowngradeTier, pendingDowngradeTier: null, downgradeEffectiveMonth: null };
  }
  if (!isPaidTier(plan.tier)) return plan === m ? null : { plan: { ...plan, paidMonth: month }, charge: 0 };
  return { plan: { ...plan, paidMonth: month, notice: null }, charge: monthlyPrice(plan.tier) };
}

/** The plan when the month's charge could not be paid: free, with the notice. */
export function renewalFailed(plan: Membership): Membership {
  return { ...plan, tier: 'free', notice: 'renewal-failed' };
}

/** The next monthly charge of a paid plan (1st of next month, 00:00 Tokyo); null for an unpaid plan. */
export function nextRenewalAt(m: Membership, now: Date): Date | null {
  if (!isPaidTier(m.tier)) return null;
  if (m.paidMonth !== null && m.paidMonth < monthKey(now)) return monthKeyStart(monthKey(now));
  return nextMonthStart(now);
}

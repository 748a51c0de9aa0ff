import { constants, type MembershipTier } from '@pagecast/contracts';
import { addMonths, monthKey, monthKeyStart, sameDayInMonth } from './months';

/** A member's plan as billing keeps it: one versioned entry per change (see data/memberships.ts). */
export interface Membership {
  memberId: string;
  tier: MembershipTier;
  registeredAt: Date;
  pendingDowngradeTier: MembershipTier | null;
  /** YYYYMM (Tokyo) of the renewal at which the pending downgrade takes effect */
  downgradeEffectiveMonth: number | null;
  /**
   * YYYYMM (Tokyo) of the month in which the last paid month began (its upgrade or renewal); null = never. A member
   * renews once a month, on their own day, so this month names the paid period.
   */
  paidMonth: number | null;
  /**
   * When the member's paid months began (the instant of their last upgrade): each renewal falls on its Tokyo day of
   * the month and time of day (see renewalDueAt). null = a plan stored before this field: the 1st at 00:00 Tokyo,
   * as every plan renewed then (no migration: the default is the old rule).
   */
  renewalAnchor: Date | null;
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

/**
 * The plan after a paid upgrade at `paidAt`: a paid month starts then and ends one calendar month later, when the
 * next renewal falls (a trial loses nothing: it was free, and the paid month starts at the upgrade).
 */
export function upgraded(m: Membership, target: 'standard' | 'creator', paidAt: Date): Membership {
  return {
    ...m,
    tier: target,
    pendingDowngradeTier: null,
    downgradeEffectiveMonth: null,
    paidMonth: monthKey(paidAt),
    renewalAnchor: paidAt,
    notice: null,
  };
}

/** The anchor of a plan stored before renewal anchors existed: 00:00 Tokyo on a 1st (renewals on the 1st). */
const FIRST_OF_THE_MONTH = monthKeyStart(200001);

/** The instant the member's renewal of month YYYYMM falls due (their anchor's day, or the month's last day). */
export function renewalDueAt(m: Pick<Membership, 'renewalAnchor'>, month: number): Date {
  return sameDayInMonth(m.renewalAnchor ?? FIRST_OF_THE_MONTH, month);
}

/** The latest month whose renewal is due at `now`: this month once its due instant has passed, else last month. */
export function dueMonth(m: Pick<Membership, 'renewalAnchor'>, now: Date): number {
  const month = monthKey(now);
  return renewalDueAt(m, month).getTime() <= now.getTime() ? month : addMonths(month, -1);
}

/**
 * The month of the member's next renewal: a paid plan whose due renewal has not run yet renews at the job's next
 * run (that month); otherwise the month after the last paid (or due) one.
 */
export function nextRenewalMonth(m: Membership, now: Date): number {
  const due = dueMonth(m, now);
  if (m.paidMonth !== null && m.paidMonth >= due) return addMonths(m.paidMonth, 1);
  return isPaidTier(m.tier) ? due : addMonths(due, 1);
}

export function downgradeRefusal(m: Membership, target: 'free' | 'standard'): MembershipRefusal | null {
  if (m.pendingDowngradeTier) return 'DOWNGRADE_ALREADY_PENDING';
  return downgrades[m.tier]?.includes(target) ? null : 'DOWNGRADE_NOT_ALLOWED';
}

/** A downgrade reserved for the member's next renewal (the end of the paid month). */
export function withDowngrade(m: Membership, target: 'free' | 'standard', now: Date): Membership {
  return { ...m, pendingDowngradeTier: target, downgradeEffectiveMonth: nextRenewalMonth(m, now) };
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
 * What the member's renewal due at `now` must do: null = nothing (not due yet, already done, or not a paid plan);
 * otherwise the month it renews (YYYYMM of its due date: the charge's key), the plan after a pending downgrade that
 * is due, and the charge (0 = nothing to charge). A renewal missed for several months charges once, for the latest.
 */
export function renewalPlan(m: Membership, now: Date): { month: number; plan: Membership; charge: number } | null {
  const month = dueMonth(m, now);
  if (m.paidMonth !== null && m.paidMonth >= month) return null;
  let plan = m;
  if (m.pendingDowngradeTier && m.downgradeEffectiveMonth !== null && m.downgradeEffectiveMonth <= month) {
    plan = { ...m, tier: m.pendingDowngradeTier, pendingDowngradeTier: null, downgradeEffectiveMonth: null };
  }
  if (!isPaidTier(plan.tier)) return plan === m ? null : { month, plan: { ...plan, paidMonth: month }, charge: 0 };
  return { month, plan: { ...plan, paidMonth: month, notice: null }, charge: monthlyPrice(plan.tier) };
}

/** The plan when the month's charge could not be paid: free, with the notice. */
export function renewalFailed(plan: Membership): Membership {
  return { ...plan, tier: 'free', notice: 'renewal-failed' };
}

/**
 * The plan's next renewal and what it charges (the plan after a pending downgrade that is due then: 0 when it
 * becomes free); null when the plan has no renewal (free, trial, 300point without a pending downgrade).
 */
export function nextRenewal(m: Membership, now: Date): { at: Date; month: number; points: number } | null {
  if (!isPaidTier(m.tier) && !m.pendingDowngradeTier) return null;
  const month = nextRenewalMonth(m, now);
  const due = m.pendingDowngradeTier && m.downgradeEffectiveMonth !== null && m.downgradeEffectiveMonth <= month;
  const tier = due && m.pendingDowngradeTier ? m.pendingDowngradeTier : m.tier;
  return { at: renewalDueAt(m, month), month, points: monthlyPrice(tier) };
}

/** An upgrade offered now: its cost at once, and its first renewal (one calendar month later) and price. */
export function upgradeOffer(target: 'standard' | 'creator', now: Date) {
  return {
    membershipTier: target,
    cost: upgradeCost(target),
    renewsAt: renewalDueAt({ renewalAnchor: now }, addMonths(monthKey(now), 1)),
    renewalPoints: monthlyPrice(target),
  };
}

/** The upgrades allowed for this plan now (none while a downgrade is pending). */
export function upgradeTargets(m: Membership): Array<'standard' | 'creator'> {
  return (['standard', 'creator'] as const).filter((t) => upgradeRefusal(m, t) === null);
}

import { constants, type MembershipTierValue } from '@pagecast/contracts';

export type UpgradeTarget = 'standard' | 'creator';
export type DowngradeTarget = 'free' | 'standard';

export interface UpgradeOption {
  tier: UpgradeTarget;
  cost: number;
  /** the balance is below the cost (spec point 4: the button is disabled) */
  affordable: boolean;
}

/** Upgrades of spec point 4: free or trial → standard (3000) or creator (5000); standard → creator. */
export function upgradeOptions(tier: string, points: number): UpgradeOption[] {
  const targets = (constants.allowedUpgrades as Record<string, readonly UpgradeTarget[]>)[tier] ?? [];
  return targets.map((target) => {
    const cost = constants.upgradeCosts[target];
    return { tier: target, cost, affordable: points >= cost };
  });
}

/** Downgrades of spec point 4, reserved for next month: standard → free; creator → free or standard. */
export function downgradeOptions(tier: string): DowngradeTarget[] {
  return [...((constants.allowedDowngrades as Record<string, readonly DowngradeTarget[]>)[tier] ?? [])];
}

/** 202612 → a date of that month's 1st (local calendar date, for display only). */
export function monthToDate(month: number | null | undefined): Date | null {
  if (!month) return null;
  const year = Math.floor(month / 100);
  const m = month % 100;
  if (m < 1 || m > 12) return null;
  return new Date(year, m - 1, 1);
}

export function isTier(value: string): value is MembershipTierValue {
  return (constants.membershipTiers as readonly string[]).includes(value);
}

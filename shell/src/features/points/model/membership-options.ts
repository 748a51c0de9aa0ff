import { constants, type MembershipTierValue, type UpgradeOffer } from '@pagecast/contracts';

export type UpgradeTarget = 'standard' | 'creator';
export type DowngradeTarget = 'free' | 'standard';

export interface UpgradeOption {
  tier: UpgradeTarget;
  /** billing's current cost, confirmed by the member and sent back as expectedCost */
  cost: number;
  /** the balance is below the cost (spec point 4: the button is disabled) */
  affordable: boolean;
  /** the first renewal if upgraded now (one calendar month later) and its points */
  renewsAt: string;
  renewalPoints: number;
}

/**
 * Upgrades of spec point 4 as billing offers them now (free or trial → standard or creator; standard → creator),
 * with billing's costs and first renewal.
 */
export function upgradeOptions(offers: readonly UpgradeOffer[] | undefined, points: number): UpgradeOption[] {
  return (offers ?? []).map((offer) => ({
    tier: offer.membershipTier,
    cost: offer.cost,
    affordable: points >= offer.cost,
    renewsAt: offer.renewsAt,
    renewalPoints: offer.renewalPoints,
  }));
}

/** Downgrades of spec point 4, reserved for the next renewal: standard → free; creator → free or standard. */
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

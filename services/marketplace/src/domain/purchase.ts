import { constants, feeSplitFor, type MembershipTierValue } from '@pagecast/contracts';

export const LICENCE_MS = constants.licenceDays * 24 * 3600 * 1000;

export type PurchaseRefusal =
  | 'FREE_TIER_CANNOT_PURCHASE'
  | 'CANNOT_BUY_OWN_FILE'
  | 'LISTING_NOT_FOUND'
  | 'ALREADY_PURCHASED'
  | 'PRICE_CHANGED';

/** The refusals the marketplace decides alone (points short is billing's answer). */
export function purchaseRefusal(input: {
  buyerId: string;
  tier: MembershipTierValue;
  listing: { sellerId: string; publishPrice: number } | null;
  holdsActiveLicence: boolean;
  /** the price the buyer saw and confirmed */
  expectedPrice: number;
}): PurchaseRefusal | undefined {
  if ((constants.tiersThatCannotPurchase as readonly string[]).includes(input.tier)) return 'FREE_TIER_CANNOT_PURCHASE';
  // a price off the fee table is no sale (publishing accepts only the table's prices): never an invented split
  if (!input.listing || !feeSplitFor(input.listing.publishPrice)) return 'LISTING_NOT_FOUND';
  if (input.listing.sellerId === input.buyerId) return 'CANNOT_BUY_OWN_FILE';
  if (input.holdsActiveLicence) return 'ALREADY_PURCHASED';
  if (input.listing.publishPrice !== input.expectedPrice) return 'PRICE_CHANGED';
  return undefined;
}

export function licenceEnd(purchasedAt: Date): Date {
  return new Date(purchasedAt.getTime() + LICENCE_MS);
}

/**
 * The insert-once key of a purchase: one per buyer, file and licence generation (how many of the buyer's
 * licences for the file have ended). Two tabs asking at once compute the same key, so only one purchase exists.
 */
export function purchaseClaimKey(buyerId: string, fileId: string, endedBefore: number): string {
  return `${buyerId}:${fileId}:${endedBefore}`;
}

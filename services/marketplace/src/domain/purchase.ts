import { constants, type MembershipTierValue, pricePlanFor } from '@pagecast/contracts';

export const LICENCE_MS = constants.licenceDays * 24 * 3600 * 1000;

export type PurchaseRefusal =
  | 'FREE_TIER_CANNOT_PURCHASE'
  | 'CANNOT_BUY_OWN_FILE'
  | 'LISTING_NOT_FOUND'
  | 'ALREADY_PURCHASED';

/** The refusals the marketplace decides alone (points short is billing's answer). */
export function purchaseRefusal(input: {
  buyerId: string;
  tier: MembershipTierValue;
  listing: { sellerId: string } | null;
  holdsActiveLicence: boolean;
}): PurchaseRefusal | undefined {
  if ((constants.tiersThatCannotPurchase as readonly string[]).includes(input.tier)) return 'FREE_TIER_CANNOT_PURCHASE';
  if (!input.listing) return 'LISTING_NOT_FOUND';
  if (input.listing.sellerId === input.buyerId) return 'CANNOT_BUY_OWN_FILE';
  if (input.holdsActiveLicence) return 'ALREADY_PURCHASED';
  return undefined;
}

/** The seller's net and the platform's fee of a price (spec point 9); a price off the table keeps the top plan's rate. */
export function splitPrice(price: number): { sellerNet: number; platformFee: number } {
  const plan = pricePlanFor(price);
  if (plan) return { sellerNet: plan.net, platformFee: plan.fee };
  const fee = Math.round(price * 0.3);
  return { sellerNet: price - fee, platformFee: fee };
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

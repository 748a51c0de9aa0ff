import { randomUUID } from 'node:crypto';
import type { MembershipTierValue, PurchaseResponse } from '@pagecast/contracts';
import { constants, feeSplitFor } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PurchaseDoc } from '../data';
import { purchaseClaimKey, purchaseRefusal } from '../domain/purchase';
import { settlePurchase } from './settle-purchase';

/** How long a duplicate request waits for the first one to settle before answering. */
const DUPLICATE_WAIT_MS = 5000;

/**
 * Buy a listed file at the price the buyer confirmed: the refusals the marketplace decides, then the intent is
 * inserted once (two tabs → one purchase), billing moves the points keyed by the purchase id, and the licence is
 * recorded and announced. The price compared with the buyer's is the one read here, once, and the very one the
 * intent records and billing charges: a publish that lands after this read cannot change what this purchase costs.
 */
export async function purchaseFile(
  ctx: ServiceContext,
  input: { buyerId: string; fileId: string; expectedPrice: number; actor: AuditActor },
): Promise<PurchaseResponse> {
  const { buyerId, fileId, expectedPrice, actor } = input;
  const { data, clock } = ctx;
  const now = clock.now();
  const [tier, listing, holds] = await Promise.all([
    data.members.tierOf(buyerId),
    data.listings.getListed(fileId),
    data.purchases.holdsActive(buyerId, fileId, now),
  ]);
  const refusal = purchaseRefusal({
    buyerId,
    // A member not yet seen by the read model has the default tier (trial), which may buy.
    tier: (tier ?? constants.defaultMembershipTier) as MembershipTierValue,
    listing,
    holdsActiveLicence: holds,
    expectedPrice,
  });
  // the current price, for the buyer to see and confirm again
  if (refusal === 'PRICE_CHANGED') throw new AppError(refusal, { details: { price: listing?.publishPrice } });
  if (refusal) throw new AppError(refusal);
  const split = listing && feeSplitFor(listing.publishPrice);
  if (!listing || !split) throw new AppError('LISTING_NOT_FOUND');

  const ended = await data.purchases.endedCount(buyerId, fileId, now);
  const purchase: PurchaseDoc = {
    _id: randomUUID(),
    claimKey: purchaseClaimKey(buyerId, fileId, ended),
    buyerId,
    fileId,
    sellerId: listing.sellerId,
    title: listing.title,
    price: listing.publishPrice,
    sellerNet: split.net,
    platformFee: split.fee,
    state: 'pending',
    reason: null,
    createdAt: now,
    purchasedAt: null,
    actor: { userId: actor.userId, address: actor.address },
  };
  if (!(await data.purchases.claim(purchase))) return duplicateOf(ctx, purchase.claimKey);

  ctx.failpoints.hit('marketplace.before-transfer');
  const settled = await settlePurchase(ctx, purchase, { mode: 'transfer' });
  if (settled.state === 'abandoned') throw refusedBy(settled.reason);
  if (settled.state === 'pending') throw new AppError('SERVICE_UNAVAILABLE');
  return {
    purchaseId: purchase._id,
    fileId,
    pointsSpent: purchase.price,
    balance: settled.balance,
    expiresAt: settled.expiresAt.toISOString(),
  };
}

/** A second request for the same purchase: it charges nothing; it answers as the first one ends. */
async function duplicateOf(ctx: ServiceContext, claimKey: string): Promise<never> {
  const deadline = Date.now() + DUPLICATE_WAIT_MS;
  for (;;) {
    const first = await ctx.data.purchases.byClaimKey(claimKey);
    if (first?.state === 'abandoned') throw refusedBy(first.reason ?? '');
    if (first?.state !== 'pending' || Date.now() > deadline) throw new AppError('ALREADY_PURCHASED');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Billing's refusal as the member's error: its business codes pass through; anything else is our fault. */
function refusedBy(code: string): AppError {
  switch (code) {
    case 'INSUFFICIENT_POINTS':
    case 'FREE_TIER_CANNOT_PURCHASE':
    case 'CANNOT_BUY_OWN_FILE':
      return new AppError(code);
    case 'TRANSFER_ABSENT':
      return new AppError('SERVICE_UNAVAILABLE');
    default:
      return new AppError('INTERNAL', { message: `billing refused the transfer: ${code}` });
  }
}

import { AUDIT_SYSTEM_ACTORS, subjects } from '@pagecast/contracts';
import { nameUuid, publishAudit } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { LicenceDoc, PurchaseDoc } from '../data';
import { licenceEnd } from '../domain/purchase';

export type Settled =
  | { state: 'completed'; balance: number; expiresAt: Date }
  /** reason: billing's refusal code, or TRANSFER_ABSENT when billing never received the transfer */
  | { state: 'abandoned'; reason: string }
  | { state: 'pending' };

/**
 * Takes a pending purchase to its end. 'transfer' asks billing to move the points (keyed by the purchase id, so
 * asking again never charges twice); 'ask' (the sweeper, for a purchase a crash left) only asks billing whether
 * that transfer happened. Applied → the licence (once, _id = purchase id) and its announcement; refused or never
 * made → abandoned, nothing moved; billing unreachable or still busy → left pending for the next sweep.
 */
export async function settlePurchase(
  ctx: ServiceContext,
  purchase: PurchaseDoc,
  opts: { mode: 'transfer' | 'ask' },
): Promise<Settled> {
  const { data, billing, logger } = ctx;
  let outcome: Awaited<ReturnType<typeof billing.transfer>>;
  try {
    outcome =
      opts.mode === 'transfer'
        ? await billing.transfer({
            transferId: purchase._id,
            buyerId: purchase.buyerId,
            sellerId: purchase.sellerId,
            fileId: purchase.fileId,
            price: purchase.price,
            sellerNet: purchase.sellerNet,
            platformFee: purchase.platformFee,
            description: purchase.title,
          })
        : await billing.lookup(purchase._id);
  } catch (err) {
    logger.warn({ err, purchaseId: purchase._id }, 'billing unreachable; the purchase stays pending');
    return { state: 'pending' };
  }
  if (outcome.status === 'pending') return { state: 'pending' };
  if (outcome.status !== 'applied') {
    const reason = outcome.status === 'absent' ? 'TRANSFER_ABSENT' : outcome.code;
    await data.purchases.setState(purchase._id, 'abandoned', { reason });
    return { state: 'abandoned', reason };
  }

  ctx.failpoints.hit('marketplace.before-licence');
  const purchasedAt = purchase.createdAt;
  const licence = await data.purchases.recordLicence({
    _id: purchase._id,
    buyerId: purchase.buyerId,
    fileId: purchase.fileId,
    sellerId: purchase.sellerId,
    pointsSpent: purchase.price,
    expiresAt: licenceEnd(purchasedAt),
    createdAt: purchasedAt,
    expiredAt: null,
  });
  await auditPurchase(ctx, purchase, licence);
  ctx.failpoints.hit('marketplace.before-announce');
  await ctx.outbox.add(
    subjects.purchaseCompleted,
    {
      purchaseId: purchase._id,
      buyerId: purchase.buyerId,
      fileId: purchase.fileId,
      sellerId: purchase.sellerId,
      price: purchase.price,
      sellerNet: purchase.sellerNet,
      expiresAt: licence.expiresAt.toISOString(),
      purchasedAt: purchasedAt.toISOString(),
    },
    { id: nameUuid(`purchase-completed:${purchase._id}`, 'v5') },
  );
  await data.purchases.setState(purchase._id, 'completed', { purchasedAt });
  return { state: 'completed', balance: outcome.buyerBalance, expiresAt: licence.expiresAt };
}

/**
 * The purchase in two audit logs: `licence.bought` in the buyer's workspace (the member who bought, their address),
 * `sale.completed` in the seller's (actor system:marketplace: the buyer, of another workspace, is not named to the
 * seller). Amounts in points, as numbers. Written while the purchase is still pending, from the stored purchase and
 * licence: a crash before it is marked completed makes the sweeper settle it again and write the same entries (ids
 * from the purchase), so each is chained once and none is lost.
 */
async function auditPurchase(ctx: ServiceContext, purchase: PurchaseDoc, licence: LicenceDoc): Promise<void> {
  const at = licence.createdAt;
  const key = purchase._id;
  await publishAudit(
    ctx.outbox,
    'marketplace',
    {
      workspaceId: purchase.buyerId,
      actor: purchase.actor ?? { userId: purchase.buyerId, address: '' },
      action: 'licence.bought',
      object: { type: 'licence', id: purchase._id },
      before: null,
      after: {
        fileId: purchase.fileId,
        title: purchase.title,
        pointsSpent: purchase.price,
        expiresAt: licence.expiresAt.toISOString(),
      },
      key,
    },
    at,
  );
  await publishAudit(
    ctx.outbox,
    'marketplace',
    {
      workspaceId: purchase.sellerId,
      actor: { userId: AUDIT_SYSTEM_ACTORS.marketplace, address: '' },
      action: 'sale.completed',
      object: { type: 'sale', id: purchase._id },
      before: null,
      after: {
        fileId: purchase.fileId,
        title: purchase.title,
        price: purchase.price,
        sellerNet: purchase.sellerNet,
        platformFee: purchase.platformFee,
      },
      key,
    },
    at,
  );
}

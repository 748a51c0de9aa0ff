import { errorMessagesJa, feeSplitFor, type TransferOutcome, type TransferRequest } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { TransferDoc } from '../data';
import { PLATFORM_ACCOUNT } from '../domain/fees';
import { postEntry } from './post-entry';

type RefusalCode =
  | 'INSUFFICIENT_POINTS'
  | 'FREE_TIER_CANNOT_PURCHASE'
  | 'CANNOT_BUY_OWN_FILE'
  | 'TRANSFER_INVALID_PRICE'
  | 'TRANSFER_MISMATCH'
  | 'TRANSFER_ABANDONED';

const refused = (transferId: string, code: RefusalCode): TransferOutcome => ({
  status: 'refused',
  transferId,
  code,
  message: errorMessagesJa[code],
});

/** The ledger keys of a transfer's three legs. */
export const legKeys = (id: string) => ({
  buyer: `transfer:${id}:buyer`,
  seller: `transfer:${id}:seller`,
  fee: `transfer:${id}:fee`,
});

export function outcomeOf(doc: TransferDoc): TransferOutcome {
  if (doc.state === 'applied') {
    return {
      status: 'applied',
      transferId: doc._id,
      buyerId: doc.buyerId,
      sellerId: doc.sellerId,
      fileId: doc.fileId,
      price: doc.price,
      fee: doc.fee,
      net: doc.net,
      buyerBalance: doc.buyerBalance ?? 0,
      appliedAt: (doc.appliedAt ?? doc.createdAt).toISOString(),
    };
  }
  if (doc.state === 'refused') return refused(doc._id, (doc.code ?? 'TRANSFER_MISMATCH') as RefusalCode);
  if (doc.state === 'abandoned') return refused(doc._id, 'TRANSFER_ABANDONED');
  return { status: 'pending', transferId: doc._id };
}

const LEASE_MS = 15_000;

/**
 * Applies a started transfer's legs in order, each idempotent by its key: buyer spends the price (refused here, and
 * only here, when points are short), seller earns the net, the platform account earns the fee. Once the buyer has
 * paid, the remaining legs are credits that cannot fail, so a transfer a crash left half done is always finished
 * forward (by a retry, a lookup or the sweeper), never half applied. One settler at a time (a lease); another caller
 * meanwhile hears 'pending'.
 */
export async function settleTransfer(ctx: ServiceContext, id: string): Promise<TransferOutcome> {
  const run = await ctx.data.claims.tryLease(`transfer-lock:${id}`, LEASE_MS, () => settleHeld(ctx, id));
  return run.held ? run.value : { status: 'pending', transferId: id };
}

/** settleTransfer's steps, under the transfer's lease. */
async function settleHeld(ctx: ServiceContext, id: string): Promise<TransferOutcome> {
  const doc = await ctx.data.transfers.get(id);
  if (!doc) return { status: 'absent', transferId: id };
  if (doc.state !== 'started') return outcomeOf(doc);
  const keys = legKeys(id);
  ctx.failpoints.hit('billing.transfer-after-intent');
  const buyer = await postEntry(ctx, {
    accountId: doc.buyerId,
    amount: -doc.price,
    type: 'spend',
    reason: { kind: 'purchase', title: doc.description },
    key: keys.buyer,
    relatedFileId: doc.fileId,
  });
  if (buyer.status === 'insufficient') {
    await ctx.data.transfers.finish(id, {
      state: 'refused',
      code: 'INSUFFICIENT_POINTS',
      buyerBalance: null,
      appliedAt: null,
    });
    return refused(id, 'INSUFFICIENT_POINTS');
  }
  ctx.failpoints.hit('billing.transfer-after-buyer');
  await postEntry(ctx, {
    accountId: doc.sellerId,
    amount: doc.net,
    type: 'earn',
    reason: { kind: 'sale', title: doc.description },
    key: keys.seller,
    relatedFileId: doc.fileId,
  });
  ctx.failpoints.hit('billing.transfer-after-seller');
  await postEntry(ctx, {
    accountId: PLATFORM_ACCOUNT,
    amount: doc.fee,
    type: 'earn',
    reason: { kind: 'platformFee' },
    key: keys.fee,
    relatedFileId: doc.fileId,
  });
  const fields = {
    state: 'applied' as const,
    code: null,
    buyerBalance: buyer.entry.balance,
    appliedAt: buyer.entry.createdAt,
  };
  await ctx.data.transfers.finish(id, fields);
  return outcomeOf({ ...doc, ...fields });
}

const sameRequest = (doc: TransferDoc, req: TransferRequest) =>
  doc.buyerId === req.buyerId && doc.sellerId === req.sellerId && doc.fileId === req.fileId && doc.price === req.price;

/** POST /internal/transfers: one transfer per transferId, recorded (intent) before any point moves. */
export async function transferPoints(ctx: ServiceContext, req: TransferRequest): Promise<TransferOutcome> {
  // the one fee table (packages/contracts), the same the marketplace used: billing stays the authority at transfer time
  const split = feeSplitFor(req.price);
  if (!split) return refused(req.transferId, 'TRANSFER_INVALID_PRICE');
  if (
    (req.sellerNet !== undefined && req.sellerNet !== split.net) ||
    (req.platformFee !== undefined && req.platformFee !== split.fee)
  ) {
    return refused(req.transferId, 'TRANSFER_INVALID_PRICE');
  }
  if (req.buyerId === req.sellerId) return refused(req.transferId, 'CANNOT_BUY_OWN_FILE');
  const existing = await ctx.data.transfers.get(req.transferId);
  if (existing)
    return sameRequest(existing, req) || existing.state === 'abandoned'
      ? answerExisting(ctx, existing)
      : refused(req.transferId, 'TRANSFER_MISMATCH');
  const buyerPlan = await ctx.data.memberships.current(req.buyerId);
  if (buyerPlan?.tier === 'free') return refused(req.transferId, 'FREE_TIER_CANNOT_PURCHASE');

  const { doc, created } = await ctx.data.transfers.record({
    _id: req.transferId,
    buyerId: req.buyerId,
    sellerId: req.sellerId,
    fileId: req.fileId,
    price: req.price,
    fee: split.fee,
    net: split.net,
    description: req.description ?? null,
    state: 'started',
    code: null,
    buyerBalance: null,
    createdAt: ctx.clock.now(),
    appliedAt: null,
  });
  if (!created && !sameRequest(doc, req) && doc.state !== 'abandoned')
    return refused(req.transferId, 'TRANSFER_MISMATCH');
  return answerExisting(ctx, doc);
}

function answerExisting(ctx: ServiceContext, doc: TransferDoc): Promise<TransferOutcome> | TransferOutcome {
  return doc.state === 'started' ? settleTransfer(ctx, doc._id) : outcomeOf(doc);
}

/**
 * GET /internal/transfers/:id, for the marketplace's sweeper: a started transfer is finished first; an unknown id is
 * recorded as abandoned (insert-once, so a transfer call racing with it either lands first and is applied, or finds
 * the tombstone and is refused): 'absent' is final.
 */
export async function lookupTransfer(ctx: ServiceContext, id: string): Promise<TransferOutcome> {
  const doc = await ctx.data.transfers.get(id);
  if (doc) return answerExisting(ctx, doc);
  const tombstone = await ctx.data.transfers.record({
    _id: id,
    // placeholders: a tombstone moves nothing (required fields cannot be empty strings)
    buyerId: '-',
    sellerId: '-',
    fileId: '-',
    price: 0,
    fee: 0,
    net: 0,
    description: null,
    state: 'abandoned',
    code: 'TRANSFER_ABANDONED',
    buyerBalance: null,
    createdAt: ctx.clock.now(),
    appliedAt: null,
  });
  if (tombstone.created) return { status: 'absent', transferId: id };
  return answerExisting(ctx, tombstone.doc);
}

/** The sweeper: transfers a crash left started are finished (each under its lease). */
export async function sweepTransfers(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.data.transfers.startedBefore(
    new Date(ctx.clock.now().getTime() - ctx.config.TRANSFER_SWEEP_AFTER_MS),
  );
  let done = 0;
  for (const doc of stale) {
    const outcome = await settleTransfer(ctx, doc._id);
    if (outcome.status !== 'pending') done++;
  }
  return done;
}

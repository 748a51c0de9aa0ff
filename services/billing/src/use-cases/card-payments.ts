import { type CreatePaymentIntentResponse, constants, type PointsPurchaseResponse } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { CardDeclinedError, type CardFailure, type CardProvider, type Intent } from '../data/card-provider';
import { postEntry } from './post-entry';

const packages: readonly number[] = constants.pointPackages;

function provider(ctx: ServiceContext): CardProvider {
  if (!ctx.cards || !ctx.config.STRIPE_PUBLISHABLE_KEY) throw new AppError('PAYMENT_NOT_CONFIGURED');
  return ctx.cards;
}

/** POST /api/create-payment-intent: a PaymentIntent in yen with the member and the package in its metadata. */
export async function createPaymentIntent(
  ctx: ServiceContext,
  memberId: string,
  amount: number,
): Promise<CreatePaymentIntentResponse> {
  if (!packages.includes(amount)) throw new AppError('VALIDATION');
  const intent = await provider(ctx).createIntent({ amount, memberId, packageAmount: amount });
  if (!intent.clientSecret) throw new Error('the card provider returned no client secret');
  return { clientSecret: intent.clientSecret, paymentIntentId: intent.id };
}

/**
 * Credits a succeeded intent once: the ledger key `payment:<intent id>` is unique, so the webhook and the purchase
 * call (whichever is first) credit, and the other finds the entry. Nothing is credited unless the provider says
 * the intent succeeded, in yen, for one of the packages, with a member in its metadata.
 */
async function creditIntent(ctx: ServiceContext, intent: Intent, address?: string) {
  const memberId = intent.metadata.memberId;
  const amount = Number(intent.metadata.package);
  if (!memberId || intent.currency !== 'jpy' || !packages.includes(amount) || intent.amount !== amount) {
    throw new AppError('PAYMENT_MISMATCH');
  }
  if (intent.status !== 'succeeded') throw new AppError('PAYMENT_NOT_SUCCEEDED');
  const result = await postEntry(ctx, {
    accountId: memberId,
    amount,
    type: 'purchase',
    reason: { kind: 'pointsPurchase', points: amount },
    key: `payment:${intent.id}`,
    paymentIntentId: intent.id,
    // the buyer's call's client address, for the purchase's audit entry (the webhook has none)
    ...(address !== undefined ? { meta: { address } } : {}),
  });
  if (result.status !== 'applied') throw new Error('a credit cannot be refused');
  return result.entry;
}

/** The intent, checked to be the caller's and for the amount the caller names. */
async function ownIntent(ctx: ServiceContext, memberId: string, intentId: string, amount?: number) {
  const intent = await provider(ctx).retrieveIntent(intentId);
  // Another member's intent answers like an unknown one: nothing about it is told.
  if (!intent || intent.metadata.memberId !== memberId) throw new AppError('NOT_FOUND');
  if (amount !== undefined && (intent.amount !== amount || intent.metadata.package !== String(amount))) {
    throw new AppError('PAYMENT_MISMATCH');
  }
  return intent;
}

/** POST /api/points/purchase: retrieves the intent from the provider (never trusts the browser) and credits it once. */
export async function recordPurchase(
  ctx: ServiceContext,
  memberId: string,
  req: { amount: number; stripePaymentIntentId: string },
  address?: string,
): Promise<PointsPurchaseResponse> {
  const intent = await ownIntent(ctx, memberId, req.stripePaymentIntentId, req.amount);
  const entry = await creditIntent(ctx, intent, address);
  const balance = await ctx.data.ledger.balance(memberId);
  return { added: entry.amount, balance, entryId: entry._id };
}

/**
 * PAYMENT_FAILED with the provider's codes in `details` ({ cardCode, declineCode }: the page words them in the
 * reader's language); the provider's own (English) sentence stays in `message`, for logs and API clients.
 */
function paymentFailed(message: string | undefined, failure: CardFailure): AppError {
  const details = Object.keys(failure).length > 0 ? { ...failure } : undefined;
  return new AppError('PAYMENT_FAILED', { message, details });
}

/** POST /api/points/confirm-payment: confirms the member's intent with their payment method, then credits it. */
export async function confirmPayment(
  ctx: ServiceContext,
  memberId: string,
  req: { paymentIntentId: string; paymentMethodId: string },
  address?: string,
): Promise<PointsPurchaseResponse> {
  let intent = await ownIntent(ctx, memberId, req.paymentIntentId);
  if (intent.status !== 'succeeded') {
    try {
      intent = await provider(ctx).confirmIntent(intent.id, req.paymentMethodId);
    } catch (err) {
      if (err instanceof CardDeclinedError) throw paymentFailed(err.message, err.failure);
      throw err;
    }
  }
  if (intent.status !== 'succeeded') throw paymentFailed(intent.lastError ?? undefined, intent.lastFailure);
  const entry = await creditIntent(ctx, intent, address);
  const balance = await ctx.data.ledger.balance(memberId);
  return { added: entry.amount, balance, entryId: entry._id };
}

/**
 * POST /api/payments/webhook: only a correctly signed, recent event is read (a forged body or a replay outside the
 * signature's tolerance is refused); a succeeded intent is retrieved again from the provider and credited once.
 */
export async function handlePaymentWebhook(
  ctx: ServiceContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  const cards = ctx.cards;
  if (!cards) throw new AppError('PAYMENT_NOT_CONFIGURED');
  const event = cards.verifyWebhook(rawBody, signature);
  if (!event) throw new AppError('WEBHOOK_SIGNATURE_INVALID');
  if (event.type === 'payment_intent.succeeded') {
    const id = (event.object as { id?: unknown }).id;
    if (typeof id !== 'string') throw new AppError('VALIDATION');
    const intent = await cards.retrieveIntent(id);
    if (!intent) throw new AppError('NOT_FOUND');
    await creditIntent(ctx, intent);
  }
  return { received: true };
}

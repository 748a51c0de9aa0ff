import { z } from 'zod';
import { pointTransactionTypes } from '../constants';
import { defineRoutes } from '../route-def';
import { IsoDateTime, MembershipTier, PointPackageAmount, providerObjectId } from '../validation';

export const CreatePaymentIntentRequest = z.object({ amount: PointPackageAmount });
export type CreatePaymentIntentRequest = z.infer<typeof CreatePaymentIntentRequest>;
export const CreatePaymentIntentResponse = z.object({ clientSecret: z.string(), paymentIntentId: z.string() });
export type CreatePaymentIntentResponse = z.infer<typeof CreatePaymentIntentResponse>;

/** Recorded after the card payment; the server checks the payment intent with the provider (once per intent). */
export const PointsPurchaseRequest = z.object({
  amount: PointPackageAmount,
  stripePaymentIntentId: providerObjectId('pi_'),
});
export type PointsPurchaseRequest = z.infer<typeof PointsPurchaseRequest>;
export const PointsPurchaseResponse = z.object({
  added: z.number().int().positive(),
  balance: z.number().int().nonnegative(),
  entryId: z.string(),
});
export type PointsPurchaseResponse = z.infer<typeof PointsPurchaseResponse>;

export const PointTransactionType = z.enum(pointTransactionTypes);
export type PointTransactionType = z.infer<typeof PointTransactionType>;
/**
 * Why a ledger entry moved points: a code and its parameters, never a sentence. Billing stores it on the entry; each
 * front end words it in the reader's language (rows stored before it carried only a Japanese sentence, which billing
 * maps back to a reason when it reads them).
 */
export const PointsEntryReason = z.discriminatedUnion('kind', [
  /** the opening balance of a new member (spec point 9: 300 points) */
  z.object({ kind: z.literal('registrationBonus') }),
  /** the bonus of the migration from the old external login (100 points) */
  z.object({ kind: z.literal('migrationBonus') }),
  /** a point package paid by card */
  z.object({ kind: z.literal('pointsPurchase'), points: z.number().int().positive() }),
  /** an upgrade paid at once, to this plan */
  z.object({ kind: z.literal('upgrade'), tier: MembershipTier }),
  /** a monthly renewal of this plan; month: YYYYMM of the renewal's due date (Asia/Tokyo) */
  z.object({ kind: z.literal('renewal'), tier: MembershipTier, month: z.number().int().min(200001).max(999912) }),
  /** content bought in the marketplace (the buyer's row); title: the file's title when the marketplace gave it */
  z.object({ kind: z.literal('purchase'), title: z.string().nullable() }),
  /** proceeds of a sale (the seller's row) */
  z.object({ kind: z.literal('sale'), title: z.string().nullable() }),
  /** the platform's fee of a sale (the platform account's row only) */
  z.object({ kind: z.literal('platformFee') }),
]);
export type PointsEntryReason = z.infer<typeof PointsEntryReason>;

export const PointsHistoryRow = z.object({
  id: z.string(),
  type: PointTransactionType,
  /** signed: spend rows are negative */
  amount: z.number().int(),
  /** what to show, in the reader's language; null only for an old row whose stored text is not a known one */
  reason: PointsEntryReason.nullable(),
  /** the spec's field: the reason in Japanese (for the spec's client), or an unknown old row's text as stored */
  description: z.string(),
  relatedFileId: z.string().nullable().optional(),
  createdAt: IsoDateTime,
});
export type PointsHistoryRow = z.infer<typeof PointsHistoryRow>;
export const PointsHistory = z.array(PointsHistoryRow);
export type PointsHistory = z.infer<typeof PointsHistory>;

/** Card provider webhook (raw body, signature header checked by billing). */
export const PaymentWebhookEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});
export type PaymentWebhookEvent = z.infer<typeof PaymentWebhookEvent>;
export const PaymentWebhookResponse = z.object({ received: z.literal(true) });

/** What the purchase dialog needs to load the card provider's script; public (no secret in it). */
export const BillingConfig = z.object({
  /** false when no publishable key is configured: the dialog shows the configuration error of the spec */
  cardPaymentsEnabled: z.boolean(),
  publishableKey: z.string().nullable(),
  /** where Stripe.js is loaded from (the real one in production, localstripe's locally) */
  stripeJsUrl: z.string(),
  /** the point packages on sale (points = yen) */
  packages: z.array(z.number().int().positive()),
});
export type BillingConfig = z.infer<typeof BillingConfig>;

/**
 * The Points screen's four cards. Monthly sums count ledger rows since the 1st of the current month in Asia/Tokyo
 * (spec point 2): earn adds the amount, spend adds the absolute amount, purchase adds the amount.
 */
export const PointsSummary = z.object({
  balance: z.number().int().nonnegative(),
  /** every earn row (registration and migration bonuses included): the Points screen's "earned this month" */
  earnedThisMonth: z.number().int().nonnegative(),
  /** sale proceeds only (what the member received as seller): the dashboard's "earnings this month" */
  salesThisMonth: z.number().int().nonnegative(),
  spentThisMonth: z.number().int().nonnegative(),
  purchasedThisMonth: z.number().int().nonnegative(),
  /** the instant the month began (00:00 Asia/Tokyo on the 1st) */
  monthStart: IsoDateTime,
});
export type PointsSummary = z.infer<typeof PointsSummary>;

/**
 * Card step confirmed on the server with the member's payment method (created in the browser by the provider's
 * card element); the points are credited as for /api/points/purchase once the provider says it succeeded.
 */
export const ConfirmPaymentRequest = z.object({
  paymentIntentId: providerObjectId('pi_'),
  // no prefix: the provider's test card names (`pm_card_visa`) and a member's unknown method are its to refuse
  paymentMethodId: providerObjectId(''),
});
export type ConfirmPaymentRequest = z.infer<typeof ConfirmPaymentRequest>;

/**
 * `details` of a PAYMENT_FAILED (402) from confirm-payment: the card provider's error code (`card_declined`,
 * `expired_card`, `incorrect_cvc`...) and, for a decline, its decline code (`insufficient_funds`...). Codes only:
 * the page words them in the reader's language; `message` keeps the provider's own sentence for logs.
 */
export const PaymentFailedDetails = z.object({
  cardCode: z.string().optional(),
  declineCode: z.string().optional(),
});
export type PaymentFailedDetails = z.infer<typeof PaymentFailedDetails>;

export const pointsRoutes = defineRoutes([
  {
    id: 'getBillingConfig',
    method: 'get',
    path: '/api/billing/config',
    service: 'billing',
    auth: 'public',
    summary: 'Whether card payments are configured, the publishable key and the Stripe.js URL',
    response: BillingConfig,
  },
  {
    id: 'getPointsSummary',
    method: 'get',
    path: '/api/points/summary',
    service: 'billing',
    auth: 'session',
    action: 'billing.read',
    summary: 'Balance and the three monthly sums (since the 1st, Asia/Tokyo)',
    response: PointsSummary,
  },
  {
    id: 'confirmPayment',
    method: 'post',
    path: '/api/points/confirm-payment',
    service: 'billing',
    auth: 'session',
    action: 'personal',
    summary:
      "Confirm the member's payment intent with a payment method on the server, then credit it once. A card the " +
      'provider refuses: 402 PAYMENT_FAILED with details { cardCode, declineCode } (the provider’s codes)',
    body: ConfirmPaymentRequest,
    response: PointsPurchaseResponse,
  },
  {
    id: 'createPaymentIntent',
    method: 'post',
    path: '/api/create-payment-intent',
    service: 'billing',
    auth: 'session',
    action: 'personal',
    summary: 'Start a card payment for a point package (1 point = 1 yen)',
    body: CreatePaymentIntentRequest,
    response: CreatePaymentIntentResponse,
  },
  {
    id: 'purchasePoints',
    method: 'post',
    path: '/api/points/purchase',
    service: 'billing',
    auth: 'session',
    action: 'personal',
    summary: 'Credit the points of a succeeded payment intent (idempotent per intent)',
    body: PointsPurchaseRequest,
    response: PointsPurchaseResponse,
  },
  {
    id: 'getPointsHistory',
    method: 'get',
    path: '/api/points/history',
    service: 'billing',
    auth: 'session',
    action: 'billing.read',
    summary:
      "The caller's ledger, newest first: each row's reason as a code with parameters (reason), and in Japanese " +
      '(description, the spec field)',
    response: PointsHistory,
  },
  {
    id: 'paymentWebhook',
    method: 'post',
    path: '/api/payments/webhook',
    service: 'billing',
    auth: 'public',
    summary: 'Card provider webhook (signed); credits succeeded point purchases',
    // server to server: no browser, no member's cookie; the signature is its check
    crossSite: 'allowed',
    body: PaymentWebhookEvent,
    response: PaymentWebhookResponse,
  },
]);

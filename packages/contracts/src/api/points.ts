import { z } from 'zod';
import { pointTransactionTypes } from '../constants';
import { defineRoutes } from '../route-def';
import { IsoDateTime, PointPackageAmount } from '../validation';

export const CreatePaymentIntentRequest = z.object({ amount: PointPackageAmount });
export type CreatePaymentIntentRequest = z.infer<typeof CreatePaymentIntentRequest>;
export const CreatePaymentIntentResponse = z.object({ clientSecret: z.string(), paymentIntentId: z.string() });
export type CreatePaymentIntentResponse = z.infer<typeof CreatePaymentIntentResponse>;

/** Recorded after the card payment; the server checks the payment intent with the provider (once per intent). */
export const PointsPurchaseRequest = z.object({
  amount: PointPackageAmount,
  stripePaymentIntentId: z
    .string({ error: 'validation.paymentIntentRequired' })
    .min(1, 'validation.paymentIntentRequired')
    .max(255, 'validation.paymentIntentRequired'),
});
export type PointsPurchaseRequest = z.infer<typeof PointsPurchaseRequest>;
export const PointsPurchaseResponse = z.object({
  message: z.string(),
  added: z.number().int().positive(),
  balance: z.number().int().nonnegative(),
  entryId: z.string(),
});
export type PointsPurchaseResponse = z.infer<typeof PointsPurchaseResponse>;

export const PointTransactionType = z.enum(pointTransactionTypes);
export type PointTransactionType = z.infer<typeof PointTransactionType>;
export const PointsHistoryRow = z.object({
  id: z.string(),
  type: PointTransactionType,
  /** signed: spend rows are negative */
  amount: z.number().int(),
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

export const pointsRoutes = defineRoutes([
  {
    id: 'createPaymentIntent',
    method: 'post',
    path: '/api/create-payment-intent',
    service: 'billing',
    auth: 'session',
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
    summary: "The caller's ledger, newest first",
    response: PointsHistory,
  },
  {
    id: 'paymentWebhook',
    method: 'post',
    path: '/api/payments/webhook',
    service: 'billing',
    auth: 'public',
    summary: 'Card provider webhook (signed); credits succeeded point purchases',
    body: PaymentWebhookEvent,
    response: PaymentWebhookResponse,
  },
]);

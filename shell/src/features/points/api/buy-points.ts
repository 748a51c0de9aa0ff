import type { PointPackageValue, PointsPurchaseResponse } from '@pagecast/contracts';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardFailure } from '../model/card-error-text';
import { confirmPayment } from './confirm-payment';
import { createPaymentIntent } from './create-payment-intent';
import { purchasePoints } from './purchase-points';
import { refreshBalances } from './refresh-balances';

/**
 * The card provider refused the card in the browser (spec point 8, 'Payment Failed'): its codes, worded from our
 * catalogues (model/card-error-text), and its own sentence (in the Elements' locale) for a code we do not know.
 */
export class CardError extends Error {
  override readonly name = 'CardError';
  readonly failure: CardFailure;

  constructor(error: { message?: string; code?: string; decline_code?: string } | undefined) {
    super(error?.message ?? 'card error');
    this.failure = {
      ...(error?.code ? { cardCode: error.code } : {}),
      ...(error?.decline_code ? { declineCode: error.decline_code } : {}),
      ...(error?.message ? { providerMessage: error.message } : {}),
    };
  }
}

/** A step before any money moved failed (spec point 8: '決済の準備に失敗しました'). */
export class PreparationError extends Error {
  override readonly name = 'PreparationError';
}

/**
 * The card's payment method, made in the browser so the card number never reaches our servers. The real Stripe.js
 * answers createPaymentMethod; localstripe's fake one (tests, local runs) does nothing there, so its card is read
 * from a token, whose card id the provider accepts as a payment method too.
 */
async function paymentMethodOf(stripe: Stripe, card: StripeCardElement): Promise<string> {
  const created = (await stripe.createPaymentMethod({ type: 'card', card })) as
    | Awaited<ReturnType<Stripe['createPaymentMethod']>>
    | undefined;
  if (created?.paymentMethod) return created.paymentMethod.id;
  if (created?.error) throw new CardError(created.error);
  const tokenized = await stripe.createToken(card);
  if (tokenized.token?.card?.id) return tokenized.token.card.id;
  throw new CardError(tokenized.error);
}

export interface BuyPointsInput {
  amount: PointPackageValue;
  stripe: Stripe;
  card: StripeCardElement;
}

/**
 * Buys one package: payment method from the card element, a PaymentIntent at billing, billing confirms it with
 * that method and credits the points once, then the spec's POST /api/points/purchase (idempotent per intent;
 * a failure there is only logged, spec point 8, because the credit already happened).
 */
export async function buyPoints({ amount, stripe, card }: BuyPointsInput): Promise<PointsPurchaseResponse> {
  const paymentMethodId = await paymentMethodOf(stripe, card);
  const intent = await createPaymentIntent({ amount }).catch((error: unknown) => {
    throw new PreparationError(error instanceof Error ? error.message : String(error), { cause: error });
  });
  const credited = await confirmPayment({ paymentIntentId: intent.paymentIntentId, paymentMethodId });
  await purchasePoints({ amount, stripePaymentIntentId: intent.paymentIntentId }).catch((error: unknown) => {
    console.warn('points purchase record failed', error);
  });
  return credited;
}

export function useBuyPoints() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: buyPoints, onSuccess: () => refreshBalances(queryClient) });
}

import { PaymentFailedDetails } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import type { StripeElementLocale } from '@stripe/stripe-js';
import type { TFunction } from 'i18next';

/** A card the provider refused, as it names the reason: its error code and, for a decline, the decline code. */
export interface CardFailure {
  cardCode?: string;
  declineCode?: string;
  /** the provider's own sentence (Stripe.js writes it in the Elements' locale); never one from the server */
  providerMessage?: string;
}

/**
 * The provider's codes (error codes of Stripe.js and of the API, and decline codes) → our catalogue's keys under
 * points.purchase.cardErrors. A lost, stolen or fraudulent card reads as a plain decline, as the provider advises.
 */
const keyOfCode: Record<string, string> = {
  card_declined: 'declined',
  generic_decline: 'declined',
  do_not_honor: 'declined',
  lost_card: 'declined',
  stolen_card: 'declined',
  pickup_card: 'declined',
  fraudulent: 'declined',
  restricted_card: 'declined',
  security_violation: 'declined',
  transaction_not_allowed: 'declined',
  insufficient_funds: 'insufficientFunds',
  expired_card: 'expired',
  invalid_expiry_month_past: 'expired',
  invalid_expiry_year_past: 'expired',
  incorrect_cvc: 'incorrectCvc',
  invalid_cvc: 'incorrectCvc',
  incorrect_number: 'incorrectNumber',
  invalid_number: 'incorrectNumber',
  invalid_expiry_month: 'invalidExpiryMonth',
  invalid_expiry_year: 'invalidExpiryYear',
  incomplete_number: 'incompleteNumber',
  incomplete_expiry: 'incompleteExpiry',
  incomplete_cvc: 'incompleteCvc',
  incomplete_zip: 'incompleteZip',
  processing_error: 'processingError',
  try_again_later: 'processingError',
  issuer_not_available: 'processingError',
  authentication_required: 'authenticationRequired',
  payment_intent_authentication_failure: 'authenticationRequired',
  card_velocity_exceeded: 'limitExceeded',
  withdrawal_count_limit_exceeded: 'limitExceeded',
  card_not_supported: 'notSupported',
  currency_not_supported: 'notSupported',
};

/**
 * What the member reads about a refused card, in their language: the decline code's text when we have one, else
 * the error code's; a code we do not know shows the provider's own (localized) sentence, else the fallback.
 */
export function cardErrorText(failure: CardFailure, t: TFunction, fallback: string): string {
  const key =
    (failure.declineCode && keyOfCode[failure.declineCode]) || (failure.cardCode && keyOfCode[failure.cardCode]);
  if (key) return t(`points.purchase.cardErrors.${key}`);
  return failure.providerMessage || fallback;
}

/** A card billing's provider declined at confirmation: PAYMENT_FAILED with its codes in `details` (codes only). */
export function serverCardFailure(error: unknown): CardFailure | undefined {
  if (!(error instanceof HttpError) || error.code !== 'PAYMENT_FAILED') return undefined;
  const details = PaymentFailedDetails.safeParse(error.data?.details);
  if (!details.success) return undefined;
  const { cardCode, declineCode } = details.data;
  return { ...(cardCode ? { cardCode } : {}), ...(declineCode ? { declineCode } : {}) };
}

const stripeLocales: Record<string, StripeElementLocale> = { ja: 'ja', en: 'en', fr: 'fr', it: 'it' };

/** The card provider's locale for the reader's language (ja, en, fr, it; 'auto' for anything else). */
export function stripeLocaleOf(language: string): StripeElementLocale {
  return stripeLocales[language.split('-')[0] ?? ''] ?? 'auto';
}

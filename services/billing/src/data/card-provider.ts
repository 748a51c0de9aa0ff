import { AppError } from '@pagecast/service-kit';
import Stripe from 'stripe';

/** What billing needs of a PaymentIntent, whoever the provider is. */
export interface Intent {
  id: string;
  status: string;
  amount: number;
  currency: string;
  clientSecret: string | null;
  metadata: Record<string, string>;
  /** the provider's message when a confirmation failed (for logs: the page words the codes) */
  lastError: string | null;
  /** the provider's codes of that failure */
  lastFailure: CardFailure;
}

/** A card failure as the provider names it: its error code and, for a decline, the decline code (codes only). */
export interface CardFailure {
  cardCode?: string;
  declineCode?: string;
}

export interface CardProvider {
  createIntent(input: { amount: number; memberId: string; packageAmount: number }): Promise<Intent>;
  retrieveIntent(id: string): Promise<Intent | null>;
  /** Attaches the member's payment method and confirms on the server (no 3-D Secure step in the browser). */
  confirmIntent(id: string, paymentMethodId: string): Promise<Intent>;
  /** The verified event, or null when the signature (or its age) is wrong. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): { id: string; type: string; object: unknown } | null;
}

export class CardDeclinedError extends Error {
  constructor(
    message: string,
    readonly failure: CardFailure,
  ) {
    super(message);
  }
}

/** Only what looks like one of the provider's codes is passed on (lower-case words, bounded). */
const providerCode = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[a-z0-9_]{1,64}$/.test(value) ? value : undefined;

export function cardFailureOf(error: { code?: unknown; decline_code?: unknown } | null | undefined): CardFailure {
  const cardCode = providerCode(error?.code);
  const declineCode = providerCode(error?.decline_code);
  return { ...(cardCode ? { cardCode } : {}), ...(declineCode ? { declineCode } : {}) };
}

/**
 * The provider unreachable or failing on its side (connection, 5xx, keys refused) is no fault of the member's:
 * 503 SERVICE_UNAVAILABLE, never a 500, and nothing was credited. Card and request errors pass through.
 */
async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeAPIError ||
      err instanceof Stripe.errors.StripeAuthenticationError ||
      err instanceof Stripe.errors.StripeRateLimitError
    )
      throw new AppError('SERVICE_UNAVAILABLE');
    throw err;
  }
}

const toIntent = (pi: Stripe.PaymentIntent): Intent => ({
  id: pi.id,
  status: pi.status,
  amount: pi.amount,
  currency: pi.currency,
  clientSecret: pi.client_secret ?? null,
  metadata: (pi.metadata ?? {}) as Record<string, string>,
  lastError: pi.last_payment_error?.message ?? null,
  lastFailure: cardFailureOf(pi.last_payment_error),
});

/**
 * The `stripe` SDK. With `apiBase` (localstripe in development and tests) it talks to that host; without it, to the
 * real provider. Yen is a zero-decimal currency: the amount is in yen, as points are.
 */
export function createCardProvider(opts: {
  secretKey: string;
  webhookSecret?: string;
  apiBase?: string;
  /** seconds a signed event stays acceptable (replays after that are refused) */
  webhookToleranceSeconds?: number;
}): CardProvider {
  const base = opts.apiBase ? new URL(opts.apiBase) : undefined;
  const stripe = new Stripe(opts.secretKey, {
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
  });
  return {
    async createIntent({ amount, memberId, packageAmount }) {
      const pi = await providerCall(() =>
        stripe.paymentIntents.create({
          amount,
          currency: 'jpy',
          metadata: { memberId, package: String(packageAmount) },
        }),
      );
      return toIntent(pi);
    },
    async retrieveIntent(id) {
      try {
        return toIntent(await providerCall(() => stripe.paymentIntents.retrieve(id)));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },
    async confirmIntent(id, paymentMethodId) {
      try {
        // Attach, then confirm: the real provider accepts this, and localstripe refuses confirm's payment_method.
        await providerCall(() => stripe.paymentIntents.update(id, { payment_method: paymentMethodId }));
        return toIntent(await providerCall(() => stripe.paymentIntents.confirm(id)));
      } catch (err) {
        // (localstripe answers a declined charge as an invalid request with the code card_declined)
        if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) {
          // a payment method the provider does not know or will not attach is the member's card failing, not ours
          throw new CardDeclinedError(err.message, cardFailureOf(err));
        }
        throw err;
      }
    },
    verifyWebhook(rawBody, signature) {
      if (!opts.webhookSecret || !signature) return null;
      try {
        const event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          opts.webhookSecret,
          opts.webhookToleranceSeconds ?? 300,
        );
        return { id: event.id, type: event.type, object: event.data.object };
      } catch {
        return null;
      }
    },
  };
}

/**
 * localstripe only (development and tests): asks it to POST signed events to `url`. The real provider's
 * endpoints are set in its dashboard instead.
 */
export async function registerLocalWebhook(apiBase: string, id: string, url: string, secret: string): Promise<void> {
  const body = new URLSearchParams({ url, secret });
  body.append('events[]', 'payment_intent.succeeded');
  const res = await fetch(new URL(`/_config/webhooks/${encodeURIComponent(id)}`, apiBase), {
    method: 'POST',
    body,
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`localstripe webhook registration answered ${res.status}`);
  await res.body?.cancel();
}

// The purchase dialog's card step in jsdom with the real i18n catalogues, query client and toasts: a refused card is
// told in the reader's language, from the provider's codes. The network is an in-test server (fetch) and the card
// provider's Stripe.js a stand-in on window.Stripe (its errors are what Stripe.js answers: { type, code,
// decline_code, message }). The real path (localstripe, billing) is the browser test's (tests/e2e/test/points.test.ts).
import type { BillingConfig } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { removeToast } from '@pagecast/ui';
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PointsPage } from '../src/features/points/points-page';
import { byTestId, type Call, click, json, pageHost, settle } from './render-page';

type StripeAnswer = { error?: Record<string, string>; paymentMethod?: { id: string } };

let i18n: Awaited<ReturnType<typeof initI18n>>;
let cardAnswer: StripeAnswer;
let confirmAnswer: () => Response;
/** what the page asked of the stand-in: the Elements' options, and updates to them */
const elementsMade: unknown[] = [];
const elementsUpdates: unknown[] = [];

const config: BillingConfig = {
  cardPaymentsEnabled: true,
  publishableKey: 'pk_test_standin',
  stripeJsUrl: 'http://stripe.test/v3/',
  packages: [],
};

const { calls, render } = pageHost((call: Call) => {
  if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'u@example.test', points: 300 });
  if (call.path === '/api/billing/config') return json(config);
  if (call.path === '/api/create-payment-intent')
    return json({ clientSecret: 'pi_1_secret_x', paymentIntentId: 'pi_1' });
  if (call.path === '/api/points/confirm-payment') return confirmAnswer();
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

/** Stripe.js as the page sees it: Elements with a card element, and createPaymentMethod answering `cardAnswer`. */
function installStripe() {
  const element = {
    mount(node: HTMLElement) {
      node.append(Object.assign(document.createElement('input'), { name: 'card-stand-in' }));
    },
    on() {},
    off() {},
    update() {},
    destroy() {},
  };
  // the release @stripe/stripe-js expects (else it warns)
  const factory = Object.assign(() => stripe, { version: 'endive' });
  const stripe = {
    elements(options: unknown) {
      elementsMade.push(options);
      return {
        create: () => element,
        getElement: () => element,
        update: (options: unknown) => elementsUpdates.push(options),
      };
    },
    createPaymentMethod: async () => cardAnswer,
    createToken: async () => ({ error: { message: 'not used' } }),
    confirmCardPayment: async () => ({}),
  };
  (window as { Stripe?: unknown }).Stripe = factory;
}

beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
  installStripe();
});

beforeEach(() => {
  elementsMade.length = 0;
  elementsUpdates.length = 0;
  cardAnswer = { paymentMethod: { id: 'pm_1' } };
  confirmAnswer = () => json({ added: 3000, balance: 3300, entryId: 'e1' });
});

afterEach(async () => {
  act(() => removeToast());
  await act(async () => {
    await i18n.changeLanguage('ja');
  });
});

/** Opens the dialog in `language`, proceeds to the card step and pays; the newest toast's title and text. */
async function payIn(language: string) {
  await act(async () => {
    await i18n.changeLanguage(language);
  });
  await render(<PointsPage />, '/points');
  await click(byTestId('points-buy'));
  await click(byTestId('purchase-proceed'));
  expect(byTestId('purchase-card')?.querySelector('input[name="card-stand-in"]')).not.toBeNull();
  return payAgain();
}

/** Pays on the open card step (toasts gone first); the newest toast's title and text. */
async function payAgain() {
  act(() => removeToast());
  const pay = byTestId('purchase-pay') as HTMLButtonElement;
  expect(pay.disabled).toBe(false);
  await click(pay);
  await settle();
  const toast = byTestId('toast');
  return {
    title: toast?.querySelector('.pc-toast__title')?.textContent ?? '',
    text: toast?.querySelector('.pc-toast__description')?.textContent ?? '',
  };
}

const paymentFailed = (details?: Record<string, string>) => () =>
  json({ code: 'PAYMENT_FAILED', message: 'Your card was declined.', ...(details ? { details } : {}) }, 402);

describe('a card the provider refuses in the browser (Stripe.js error codes)', () => {
  it.each([
    [
      'fr',
      {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
      'Le solde ou le plafond de votre carte est insuffisant.',
    ],
    [
      'en',
      { type: 'card_error', code: 'card_declined', decline_code: 'stolen_card', message: 'Your card was declined.' },
      'Your card was declined. Please try another card or contact your card issuer.',
    ],
    [
      'ja',
      { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' },
      'カードの有効期限が切れています。',
    ],
    [
      'it',
      { type: 'card_error', code: 'incorrect_cvc', message: 'x' },
      'Il codice di sicurezza della carta non è corretto.',
    ],
    [
      'fr',
      { type: 'validation_error', code: 'incomplete_number', message: 'x' },
      'Le numéro de votre carte est incomplet.',
    ],
    [
      'ja',
      { type: 'validation_error', code: 'invalid_expiry_year_past', message: 'x' },
      'カードの有効期限が切れています。',
    ],
    ['en', { type: 'validation_error', code: 'invalid_number', message: 'x' }, 'Your card number is incorrect.'],
    [
      'it',
      { type: 'api_error', code: 'processing_error', message: 'x' },
      'Si è verificato un errore durante l’elaborazione della carta. Riprova tra poco.',
    ],
  ])('in %s, %j reads %j, and nothing is sent to billing', async (language, error, expected) => {
    cardAnswer = { error };
    const shown = await payIn(language);
    expect(shown.text).toBe(expected);
    expect(shown.title).toBe(i18n.t('points.purchase.paymentFailed'));
    // still on the card step
    expect(byTestId('purchase-pay')).not.toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('a card declined at confirmation (billing: PAYMENT_FAILED with the provider’s codes in details)', () => {
  it.each([
    ['it', { cardCode: 'expired_card' }, 'La carta è scaduta.'],
    [
      'fr',
      { cardCode: 'card_declined' },
      'Votre carte a été refusée. Essayez une autre carte ou contactez l’émetteur de votre carte.',
    ],
    ['en', { cardCode: 'card_declined', declineCode: 'insufficient_funds' }, 'Your card has insufficient funds.'],
    [
      'ja',
      { cardCode: 'card_declined', declineCode: 'lost_card' },
      'カードが拒否されました。別のカードをお試しいただくか、カード会社にお問い合わせください。',
    ],
    ['ja', { cardCode: 'incorrect_cvc' }, 'セキュリティコードが正しくありません。'],
  ])('in %s, details %j read %j', async (language, details, expected) => {
    confirmAnswer = paymentFailed(details);
    const shown = await payIn(language);
    expect(shown.text).toBe(expected);
    expect(shown.title).toBe(i18n.t('points.purchase.paymentFailed'));
    expect(calls.filter((c) => c.path === '/api/points/confirm-payment')).toHaveLength(1);
  });
});

describe('a code we do not word', () => {
  it('shows the provider’s own (localized) sentence from the browser, else our generic text; never billing’s', async () => {
    cardAnswer = { error: { type: 'card_error', code: 'some_new_code', message: 'Message du prestataire.' } };
    expect((await payIn('fr')).text).toBe('Message du prestataire.');
    cardAnswer = { error: { type: 'card_error' } };
    expect((await payAgain()).text).toBe('Le paiement a échoué');
    cardAnswer = { paymentMethod: { id: 'pm_1' } };
    confirmAnswer = paymentFailed({ cardCode: 'some_new_code' });
    expect((await payAgain()).text).toBe('Le paiement a échoué');
    confirmAnswer = paymentFailed();
    expect((await payAgain()).text).toBe('Le paiement a échoué');
  });
});

describe('the card provider’s element in the reader’s language', () => {
  it.each([
    ['ja', 'ja'],
    ['en', 'en'],
    ['fr', 'fr'],
    ['it', 'it'],
  ])('in %s the Elements are made with locale %s', async (language, locale) => {
    await act(async () => {
      await i18n.changeLanguage(language);
    });
    await render(<PointsPage />, '/points');
    await click(byTestId('points-buy'));
    await click(byTestId('purchase-proceed'));
    expect(elementsMade).toEqual([{ locale }]);
    expect(elementsUpdates).toEqual([]);
  });

  it('follows a language change on the card step, without making the Elements again', async () => {
    await render(<PointsPage />, '/points');
    await click(byTestId('points-buy'));
    await click(byTestId('purchase-proceed'));
    expect(elementsMade).toEqual([{ locale: 'ja' }]);
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    await settle();
    expect(elementsUpdates).toEqual([{ locale: 'fr' }]);
    expect(elementsMade).toHaveLength(1);
    expect(byTestId('purchase-card')?.querySelector('input[name="card-stand-in"]')).not.toBeNull();
  });
});

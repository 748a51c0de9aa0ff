import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry, subjects } from '@pagecast/contracts';
import { clientAddressHeaders } from '@pagecast/service-kit/testing';
import { cardFailureOf, registerLocalWebhook } from '../src/data/card-provider';
import { call, checkLedger, destroyBilling, registerMember, startBilling, type TestService, waitFor } from './helpers';

// The card provider is localstripe (the real provider's API cannot be reached here): it keeps intents, confirms them
// with test cards and signs webhooks like the real one. Its webhooks reach billing through a relay that notes each
// delivery with billing's answer, so a test waits for the webhook it is about rather than for a while.
let svc: TestService;
let provider: Stripe;
let relay: HttpServer;
const deliveries: Array<{ type: string; intent: string; status: number }> = [];
beforeAll(async () => {
  svc = await startBilling();
  const base = new URL(svc.env.STRIPE_API_BASE as string);
  provider = new Stripe('sk_test_localstripe', { host: base.hostname, port: base.port, protocol: 'http' });
  relay = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = await fetch(`${svc.server.url}/api/payments/webhook`, {
      method: 'POST',
      headers: {
        'content-type': req.headers['content-type'] ?? 'application/json',
        'stripe-signature': String(req.headers['stripe-signature'] ?? ''),
      },
      body,
    });
    const text = await answer.text();
    const event = JSON.parse(body.toString('utf8')) as { type: string; data: { object: { id: string } } };
    deliveries.push({ type: event.type, intent: event.data.object.id, status: answer.status });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((ready) => relay.listen(0, '127.0.0.1', ready));
  const { port } = relay.address() as { port: number };
  await registerLocalWebhook(
    base.toString(),
    svc.env.MONGO_DB as string,
    `http://127.0.0.1:${port}/`,
    svc.env.STRIPE_WEBHOOK_SECRET as string,
  );
});
afterAll(async () => {
  await new Promise((closed) => relay?.close(closed));
  await destroyBilling(svc);
});

/** Waits until localstripe's webhook for `intent` has reached billing and billing has answered it (200). */
async function webhookHandled(intent: string) {
  const delivery = await waitFor(`the webhook of ${intent} answered by billing`, async () =>
    deliveries.find((d) => d.intent === intent && d.type === 'payment_intent.succeeded'),
  );
  expect(delivery.status).toBe(200);
}

const balance = (id: string) => svc.server.context.data.ledger.balance(id);
const purchases = async (id: string) =>
  (await call(svc, id, 'GET', '/api/points/history')).body.filter((r: { type: string }) => r.type === 'purchase');
const newIntent = async (member: string, amount = 3000) => {
  const res = await call(svc, member, 'POST', '/api/create-payment-intent', { amount });
  expect(res.status).toBe(200);
  expect(res.body.clientSecret).toMatch(/^pi_/);
  return res.body.paymentIntentId as string;
};

/** What the browser's Stripe.js does with the member's card: attach it and confirm at the provider. */
const confirmAtProvider = async (intent: string) => {
  await provider.paymentIntents.update(intent, { payment_method: 'pm_card_visa' });
  await provider.paymentIntents.confirm(intent);
};

describe('card payments (localstripe)', () => {
  it('confirms on the server with the member’s card and credits the package once, whoever reports it', async () => {
    const member = await registerMember(svc);
    const intent = await newIntent(member);
    const stored = await provider.paymentIntents.retrieve(intent);
    expect(stored).toMatchObject({ amount: 3000, currency: 'jpy', metadata: { memberId: member, package: '3000' } });
    const paid = await call(svc, member, 'POST', '/api/points/confirm-payment', {
      paymentIntentId: intent,
      paymentMethodId: 'pm_card_visa',
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ added: 3000, balance: 3300 });
    expect(Object.keys(paid.body).sort()).toEqual(['added', 'balance', 'entryId']); // no sentence: the page words it
    const again = await call(svc, member, 'POST', '/api/points/purchase', {
      amount: 3000,
      stripePaymentIntentId: intent,
    });
    expect(again.body).toMatchObject({ added: 3000, balance: 3300, entryId: paid.body.entryId });
    await webhookHandled(intent); // the signed webhook of the same intent, handled after the credit
    expect(await balance(member)).toBe(3300);
    expect(await purchases(member)).toHaveLength(1);
  });

  it('credits from the signed webhook alone when the browser never calls back', async () => {
    const member = await registerMember(svc);
    const intent = await newIntent(member, 1000);
    await confirmAtProvider(intent);
    await waitFor('webhook credit', async () => (await balance(member)) === 1300);
    expect(await purchases(member)).toHaveLength(1);
  });

  it('credits once when the webhook and several purchase calls race for one intent', async () => {
    const member = await registerMember(svc);
    const intent = await newIntent(member, 5000);
    await confirmAtProvider(intent);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        call(svc, member, 'POST', '/api/points/purchase', { amount: 5000, stripePaymentIntentId: intent }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    expect(new Set(answers.map((a) => a.body.entryId)).size).toBe(1);
    await webhookHandled(intent);
    expect(await balance(member)).toBe(5300);
    expect(await purchases(member)).toHaveLength(1);
    await checkLedger(svc);
  });

  it('a card purchase is one points.bought entry in the buyer’s workspace, however often it is reported', async () => {
    const purchaseEntries = async (id: string) =>
      (await svc.server.context.outbox.entries({ subject: subjects.auditBilling }))
        .map((e) => AuditEntry.parse(e.data))
        .filter((e) => e.workspaceId === id && e.action === 'points.bought');
    const member = await registerMember(svc);
    const intent = await newIntent(member, 3000);
    const from = clientAddressHeaders('192.0.2.62', svc.env.INTERNAL_SECRET ?? '');
    const body = { paymentIntentId: intent, paymentMethodId: 'pm_card_visa' };
    expect((await call(svc, member, 'POST', '/api/points/confirm-payment', body, from)).status).toBe(200);
    const repeat = { amount: 3000, stripePaymentIntentId: intent };
    expect((await call(svc, member, 'POST', '/api/points/purchase', repeat, from)).status).toBe(200);
    await webhookHandled(intent);
    const entries = await purchaseEntries(member);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: member,
      address: '192.0.2.62',
      object: { type: 'points-purchase' },
      before: null,
      after: { points: 3000, price: { amount: 3000, currency: 'JPY' }, paymentIntentId: intent, balance: 3300 },
    });

    // credited by the provider's webhook alone, delivered twice: one credit, one entry (no address: no member call)
    const other = await registerMember(svc);
    const second = await newIntent(other, 1000);
    await confirmAtProvider(second);
    await waitFor('webhook credit', async () => (await balance(other)) === 1300);
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: second, object: 'payment_intent' } },
    });
    const signature = provider.webhooks.generateTestHeaderString({
      payload,
      secret: svc.env.STRIPE_WEBHOOK_SECRET as string,
    });
    const redelivered = await call(svc, undefined, 'POST', '/api/payments/webhook', payload, {
      'stripe-signature': signature,
    });
    expect(redelivered.status).toBe(200);
    expect(await balance(other)).toBe(1300);
    const logged = await purchaseEntries(other);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorUserId: other, address: '', after: { points: 1000, balance: 1300 } });
  });

  it('refuses bad input with a stable code and credits nothing', async () => {
    const member = await registerMember(svc);
    const other = await registerMember(svc);
    const intent = await newIntent(member);
    const othersIntent = await newIntent(other);
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/create-payment-intent', { amount: 1234 }, 400, 'VALIDATION'],
      ['/api/create-payment-intent', { amount: '3000' }, 400, 'VALIDATION'],
      ['/api/points/purchase', { amount: 3000, stripePaymentIntentId: intent }, 402, 'PAYMENT_NOT_SUCCEEDED'],
      ['/api/points/purchase', { amount: 3000, stripePaymentIntentId: othersIntent }, 404, 'NOT_FOUND'],
      ['/api/points/purchase', { amount: 3000, stripePaymentIntentId: 'pi_doesnotexist' }, 404, 'NOT_FOUND'],
      ['/api/points/purchase', { amount: 3000 }, 400, 'VALIDATION'],
      // not the provider's id format (schemathesis sent control characters and lone surrogates, which reached
      // localstripe and came back as its own 500): refused before the provider is asked
      [
        '/api/points/purchase',
        { amount: 3000, stripePaymentIntentId: ']\u0091\f\u0005\ud9d4\udfedu{f%' },
        400,
        'VALIDATION',
      ],
      ['/api/points/purchase', { amount: 3000, stripePaymentIntentId: 'pi_../../v1/charges' }, 400, 'VALIDATION'],
      ['/api/points/purchase', { amount: 3000, stripePaymentIntentId: 'cus_abc' }, 400, 'VALIDATION'],
      [
        '/api/points/confirm-payment',
        { paymentIntentId: 'pi_a b', paymentMethodId: 'pm_card_visa' },
        400,
        'VALIDATION',
      ],
      ['/api/points/confirm-payment', { paymentIntentId: intent, paymentMethodId: 'pm\u0000' }, 400, 'VALIDATION'],
      [
        '/api/points/confirm-payment',
        { paymentIntentId: intent, paymentMethodId: 'pm_card_chargeCustomerFail' },
        402,
        'PAYMENT_FAILED',
      ],
      // a payment method the provider does not know (schemathesis sent "0"): the member's card failed, not the server
      ['/api/points/confirm-payment', { paymentIntentId: intent, paymentMethodId: '0' }, 402, 'PAYMENT_FAILED'],
      [
        '/api/points/confirm-payment',
        { paymentIntentId: othersIntent, paymentMethodId: 'pm_card_visa' },
        404,
        'NOT_FOUND',
      ],
    ];
    for (const [path, body, statusCode, code] of cases) {
      const res = await call(svc, member, 'POST', path, body);
      expect([res.status, res.body.code], `${path} ${JSON.stringify(body)}`).toEqual([statusCode, code]);
    }
    // Paid for 1000 but claiming the 10000 package: refused even though the intent succeeded.
    const small = await newIntent(member, 1000);
    await call(svc, member, 'POST', '/api/points/confirm-payment', {
      paymentIntentId: small,
      paymentMethodId: 'pm_card_visa',
    });
    const greedy = await call(svc, member, 'POST', '/api/points/purchase', {
      amount: 10000,
      stripePaymentIntentId: small,
    });
    expect([greedy.status, greedy.body.code]).toEqual([409, 'PAYMENT_MISMATCH']);
    await webhookHandled(small); // the small package's own webhook credits nothing more
    expect(await balance(member)).toBe(1300);
    expect(await balance(other)).toBe(300);
  });

  it('a card declined at confirmation: PAYMENT_FAILED with the provider’s codes in details, nothing credited', async () => {
    const member = await registerMember(svc);
    const intent = await newIntent(member);
    // what the browser's card element makes of a card whose charge the provider declines (4000000000000341)
    const token = await provider.tokens.create({
      card: { number: '4000000000000341', exp_month: '12', exp_year: '2034', cvc: '123' },
    } as Stripe.TokenCreateParams);
    const cardId = token.card?.id as string;
    const res = await call(svc, member, 'POST', '/api/points/confirm-payment', {
      paymentIntentId: intent,
      paymentMethodId: cardId,
    });
    expect([res.status, res.body.code]).toEqual([402, 'PAYMENT_FAILED']);
    // codes only (localstripe names no decline code: the real provider's decline_code comes the same way)
    expect(res.body.details).toEqual({ cardCode: 'card_declined' });
    // the provider's own sentence stays in `message` for logs and API clients
    expect(res.body.message).toBe('Your card was declined.');
    expect((await provider.paymentIntents.retrieve(intent)).status).not.toBe('succeeded');
    const record = await call(svc, member, 'POST', '/api/points/purchase', {
      amount: 3000,
      stripePaymentIntentId: intent,
    });
    expect([record.status, record.body.code]).toEqual([402, 'PAYMENT_NOT_SUCCEEDED']);
    expect(await balance(member)).toBe(300);
    expect(await purchases(member)).toHaveLength(0);
  });

  it('passes on only what looks like the provider’s codes', () => {
    expect(cardFailureOf({ code: 'card_declined', decline_code: 'insufficient_funds' })).toEqual({
      cardCode: 'card_declined',
      declineCode: 'insufficient_funds',
    });
    // the SDK's card error has an empty decline code when the provider gave none
    expect(cardFailureOf({ code: 'expired_card', decline_code: '' })).toEqual({ cardCode: 'expired_card' });
    expect(cardFailureOf({ code: 'Your card was declined.', decline_code: 42 })).toEqual({});
    expect(cardFailureOf(null)).toEqual({});
  });

  it('refuses forged, unsigned and replayed webhooks', async () => {
    const member = await registerMember(svc);
    const intent = await newIntent(member);
    await confirmAtProvider(intent);
    await waitFor('the real webhook', async () => (await balance(member)) === 3300);
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: intent, object: 'payment_intent' } },
    });
    const post = (headers: Record<string, string>) =>
      call(svc, undefined, 'POST', '/api/payments/webhook', payload, headers);
    const secret = svc.env.STRIPE_WEBHOOK_SECRET as string;
    const forged = provider.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_secret' });
    const replayed = provider.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    for (const headers of [{ 'stripe-signature': forged }, {}, { 'stripe-signature': replayed }] as Array<
      Record<string, string>
    >) {
      const res = await post(headers);
      expect([res.status, res.body.code]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    }
    // A body altered after signing is refused too.
    const good = provider.webhooks.generateTestHeaderString({ payload, secret });
    const altered = await call(
      svc,
      undefined,
      'POST',
      '/api/payments/webhook',
      payload.replace('payment_intent', 'payment_intent '),
      {
        'stripe-signature': good,
      },
    );
    expect(altered.status).toBe(400);
    // The genuine, fresh event repeated credits nothing more.
    expect((await post({ 'stripe-signature': good })).status).toBe(200);
    expect(await balance(member)).toBe(3300);
  });

  it('says card payments are not configured when no keys are set, and refuses to start a payment', async () => {
    const bare = await startBilling({ env: { STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: '' } });
    try {
      const config = await call(bare, undefined, 'GET', '/api/billing/config');
      expect(config.body).toMatchObject({ cardPaymentsEnabled: false, publishableKey: null });
      const res = await call(bare, 'someone', 'POST', '/api/create-payment-intent', { amount: 3000 });
      expect([res.status, res.body.code]).toEqual([503, 'PAYMENT_NOT_CONFIGURED']);
    } finally {
      await destroyBilling(bare);
    }
  });

  it('answers 503 SERVICE_UNAVAILABLE, not 500, when the card provider cannot be reached', async () => {
    // a closed port on this machine stands for the provider being down
    const down = await startBilling({ env: { STRIPE_API_BASE: 'http://127.0.0.1:9' } });
    try {
      const member = await registerMember(down);
      const res = await call(down, member, 'POST', '/api/create-payment-intent', { amount: 3000 });
      expect([res.status, res.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    } finally {
      await destroyBilling(down);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { createEvent, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry } from '../src/use-cases/post-entry';
import {
  call,
  checkLedger,
  credit,
  destroyBilling,
  publishEvent,
  registerMember,
  startBilling,
  type TestService,
  waitFor,
} from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  await destroyBilling(svc);
});

describe('the ledger', () => {
  it('opens a member with 300 points once, however often account announces the registration', async () => {
    const userId = await registerMember(svc);
    const event = {
      userId,
      email: 'x@example.test',
      firstName: 'A',
      lastName: 'B',
      membershipTier: 'trial' as const,
      points: 300,
      registeredAt: new Date().toISOString(),
      locale: 'ja',
    };
    // Two more deliveries with new event ids (a republish outside the duplicate window).
    await publishEvent(svc, subjects.userRegistered, event);
    await publishEvent(svc, subjects.userRegistered, event);
    const marker = await registerMember(svc); // consumed after the duplicates: they have been handled
    expect(marker).toBeTruthy();
    const history = await call(svc, userId, 'GET', '/api/points/history');
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({ type: 'earn', amount: 300 });
    expect((await svc.server.context.data.memberships.current(userId))?.tier).toBe('trial');
  });

  it('grants the 100-point migration bonus once, and announces each balance with billing.points.changed.v1', async () => {
    const userId = await registerMember(svc);
    const seen: number[] = [];
    const sub = svc.server.context.nats.nc.subscribe(subjects.pointsChanged);
    (async () => {
      for await (const m of sub) {
        const e = JSON.parse(new TextDecoder().decode(m.data));
        if (e.data.userId === userId) seen.push(e.data.balance);
      }
    })();
    const { js, jsm } = svc.server.context.nats;
    let lastSeq = 0;
    for (let i = 0; i < 3; i++) {
      const event = createEvent(subjects.userMigrated, { userId, bonusPoints: 100 });
      lastSeq = (await js.publish(subjects.userMigrated, JSON.stringify(event), { msgID: event.id })).seq;
    }
    await waitFor('bonus', async () => (await svc.server.context.data.ledger.balance(userId)) === 400);
    // all three deliveries handled: billing's durable has acknowledged everything up to the last of them
    await waitFor('the three deliveries acknowledged', async () => {
      const info = await jsm.consumers.info('ACCOUNT', `${svc.env.CONSUMER_PREFIX}-account`);
      return info.ack_floor.stream_seq >= lastSeq;
    });
    expect(await svc.server.context.data.ledger.balance(userId)).toBe(400);
    await waitFor('event', async () => seen.includes(400));
    sub.unsubscribe();
    const summary = await call(svc, userId, 'GET', '/api/points/summary');
    expect(summary.body).toMatchObject({
      balance: 400,
      earnedThisMonth: 400,
      spentThisMonth: 0,
      purchasedThisMonth: 0,
    });
  });

  it('lets concurrent spends on one account take it to zero and never below', async () => {
    const userId = await registerMember(svc, { points: 1000 });
    const results = await Promise.all(
      Array.from({ length: 15 }, () =>
        postEntry(svc.server.context, {
          accountId: userId,
          amount: -100,
          type: 'spend',
          reason: { kind: 'upgrade', tier: 'standard' },
          key: randomUUID(),
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'applied')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'insufficient')).toHaveLength(5);
    expect(await svc.server.context.data.ledger.balance(userId)).toBe(0);
    await checkLedger(svc);
  });

  it('counts the month from 00:00 Tokyo on the 1st: an entry at 23:59 Tokyo on the last day is last month', async () => {
    const userId = await registerMember(svc);
    const clock = svc.server.context.clock;
    try {
      clock.set(new Date('2030-01-31T14:59:00Z')); // 23:59 on 31 January in Tokyo
      await credit(svc, userId, 1000);
      clock.set(new Date('2030-01-31T15:00:00Z')); // 00:00 on 1 February in Tokyo
      await credit(svc, userId, 3000);
      await postEntry(svc.server.context, {
        accountId: userId,
        amount: -500,
        type: 'spend',
        reason: { kind: 'upgrade', tier: 'standard' },
        key: randomUUID(),
      });
      clock.set(new Date('2030-02-10T00:00:00Z'));
      const summary = await call(svc, userId, 'GET', '/api/points/summary');
      expect(summary.body).toMatchObject({
        balance: 3800,
        earnedThisMonth: 0,
        spentThisMonth: 500,
        purchasedThisMonth: 3000,
        monthStart: '2030-01-31T15:00:00.000Z',
      });
      const history = await call(svc, userId, 'GET', '/api/points/history');
      expect(history.body.map((r: { amount: number }) => r.amount)).toEqual([-500, 3000, 1000, 300]);
    } finally {
      clock.set(null);
    }
  });

  it('answers a call without identity 401 and a service identity on member calls 403', async () => {
    expect((await call(svc, undefined, 'GET', '/api/points/history')).status).toBe(401);
    expect((await call(svc, 'service:marketplace', 'GET', '/api/points/history')).body.code).toBe('FORBIDDEN');
  });

  it('serves the card configuration publicly', async () => {
    const res = await call(svc, undefined, 'GET', '/api/billing/config');
    expect(res.body).toEqual({
      cardPaymentsEnabled: true,
      publishableKey: 'pk_test_localstripe',
      stripeJsUrl: svc.env.STRIPE_JS_URL,
      packages: [1000, 3000, 5000, 10000],
    });
  });
});

import { constants, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  checkLedger,
  credit,
  destroyBilling,
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
  svc.server.context.clock.set(null);
  await destroyBilling(svc);
});

const balance = (id: string) => svc.server.context.data.ledger.balance(id);
const status = async (id: string) => (await call(svc, id, 'GET', '/api/membership/status')).body;

describe('membership', () => {
  it('upgrades trial → standard for 3000 points at once, then standard → creator for 5000', async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 8000);
    const up = await call(svc, id, 'POST', '/api/membership/upgrade', {
      membershipTier: 'standard',
      expectedCost: 3000,
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ pointsConsumed: 3000, user: { id, membershipTier: 'standard', points: 5300 } });
    expect(Object.keys(up.body).sort()).toEqual(['pointsConsumed', 'user']); // no sentence: the page words it
    const up2 = await call(svc, id, 'POST', '/api/membership/upgrade', {
      membershipTier: 'creator',
      expectedCost: 5000,
    });
    expect(up2.body).toMatchObject({ pointsConsumed: 5000, user: { membershipTier: 'creator', points: 300 } });
    const s = await status(id);
    expect(s).toMatchObject({ membershipTier: 'creator', monthlyPrice: 5000, renewalPoints: 5000, notice: null });
    expect(s.renewsAt).toBeTruthy();
  });

  it('charges once when two tabs upgrade at the same moment', async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 5700); // 6000: enough for two standard upgrades if they were both charged
    const [a, b] = await Promise.all([
      call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 }),
      call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 200 ? b : a;
    expect(['UPGRADE_NOT_ALLOWED', 'MEMBERSHIP_BUSY']).toContain(refused.body.code);
    expect(await balance(id)).toBe(3000);
    expect((await status(id)).membershipTier).toBe('standard');
    await checkLedger(svc);
  });

  it('refuses with a stable code and changes nothing: short points, a tier not above, a bad tier, bad downgrades', async () => {
    const id = await registerMember(svc);
    const before = await balance(id);
    const cases: Array<[string, string, unknown, number, string]> = [
      [
        'POST',
        '/api/membership/upgrade',
        { membershipTier: 'standard', expectedCost: 3000 },
        402,
        'INSUFFICIENT_POINTS',
      ],
      ['POST', '/api/membership/upgrade', { membershipTier: 'free' }, 400, 'VALIDATION'],
      ['POST', '/api/membership/upgrade', {}, 400, 'VALIDATION'],
      ['POST', '/api/membership/upgrade', { membershipTier: 'standard' }, 400, 'VALIDATION'], // no confirmed cost
      ['POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: -3000 }, 400, 'VALIDATION'],
      ['POST', '/api/membership/schedule-downgrade', { targetTier: 'free' }, 409, 'DOWNGRADE_NOT_ALLOWED'],
      ['POST', '/api/membership/schedule-downgrade', { targetTier: 'creator' }, 400, 'VALIDATION'],
      ['DELETE', '/api/membership/cancel-downgrade', undefined, 409, 'NO_PENDING_DOWNGRADE'],
    ];
    for (const [method, path, body, code, errorCode] of cases) {
      const res = await call(svc, id, method, path, body);
      expect([res.status, res.body.code], `${path} ${JSON.stringify(body)}`).toEqual([code, errorCode]);
    }
    expect(await balance(id)).toBe(before);
    expect(await status(id)).toMatchObject({ membershipTier: 'trial', pendingDowngradeTier: null });
    await credit(svc, id, 10_000);
    await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator', expectedCost: 5000 });
    const again = await call(svc, id, 'POST', '/api/membership/upgrade', {
      membershipTier: 'standard',
      expectedCost: 3000,
    });
    expect(again.body.code).toBe('UPGRADE_NOT_ALLOWED');
  });

  it("reserves a downgrade for the member's next renewal, refuses a second one and cancels it", async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 5000);
    svc.server.context.clock.set(new Date('2031-04-14T03:00:00Z')); // 14 April 12:00 in Tokyo
    try {
      await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator', expectedCost: 5000 });
      svc.server.context.clock.set(new Date('2031-04-30T16:00:00Z')); // 1 May 01:00 in Tokyo: not a renewal day
      const res = await call(svc, id, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'standard' });
      // fields only, no sentence (the page words it)
      expect(res.body).toEqual({ scheduledTier: 'standard', effectiveDate: '2031-05-14', effectiveMonth: 203105 });
      expect(await status(id)).toMatchObject({ renewsAt: '2031-05-14T03:00:00.000Z', renewalPoints: 3000 });
      const second = await call(svc, id, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' });
      expect(second.body.code).toBe('DOWNGRADE_ALREADY_PENDING');
      const up = await call(svc, id, 'POST', '/api/membership/upgrade', {
        membershipTier: 'creator',
        expectedCost: 5000,
      });
      expect(up.body.code).toBe('UPGRADE_NOT_ALLOWED');
      expect(await status(id)).toMatchObject({
        pendingDowngradeTier: 'standard',
        downgradeEffectiveMonth: 203105,
        upgradeOffers: [],
      });
      expect((await call(svc, id, 'DELETE', '/api/membership/cancel-downgrade')).body).toEqual({ ok: true });
      expect(await status(id)).toMatchObject({
        membershipTier: 'creator',
        pendingDowngradeTier: null,
        renewsAt: '2031-05-14T03:00:00.000Z',
        renewalPoints: 5000,
      });
    } finally {
      svc.server.context.clock.set(null);
    }
  });

  it('ends a trial after 30 days, renews paid plans once on their own day, applies due downgrades, and drops non-payers to free', async () => {
    const ctx = svc.server.context;
    const registeredAt = new Date('2032-01-05T00:00:00Z');
    ctx.clock.set(new Date('2032-01-10T00:00:00Z')); // 10 January 09:00 in Tokyo: the upgrades' day
    const trial = await registerMember(svc, { registeredAt });
    const payer = await registerMember(svc, { registeredAt });
    const poor = await registerMember(svc, { registeredAt });
    const leaving = await registerMember(svc, { registeredAt });
    await credit(svc, payer, 6000);
    await credit(svc, poor, 3000);
    await credit(svc, leaving, 5000);
    ctx.clock.set(new Date('2032-01-10T00:00:01Z')); // after the credits' entries (an account's times only increase)
    for (const [id, tier] of [
      [payer, 'standard'],
      [poor, 'standard'],
      [leaving, 'creator'],
    ] as const) {
      const up = await call(svc, id, 'POST', '/api/membership/upgrade', {
        membershipTier: tier,
        expectedCost: constants.upgradeCosts[tier],
      });
      expect(up.status).toBe(200);
      expect(up.body.user).toMatchObject({ renewsAt: '2032-02-10T00:00:01.000Z' });
    }
    await call(svc, leaving, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' });
    const seen: Array<{ userId: string; tier: string }> = [];
    const sub = ctx.nats.nc.subscribe(subjects.membershipChanged);
    (async () => {
      for await (const m of sub) seen.push(JSON.parse(new TextDecoder().decode(m.data)).data);
    })();
    try {
      // 4 February 00:00 UTC: 30 days after registration; the 1st has passed, but nobody renews on the 1st.
      ctx.clock.set(new Date('2032-02-04T00:00:00Z'));
      for (let i = 0; i < 2; i++)
        expect((await call(svc, undefined, 'POST', '/internal/test/run-jobs')).status).toBe(200);
      expect(await status(trial)).toMatchObject({ membershipTier: 'free', notice: 'trial-ended' });
      expect(await status(payer)).toMatchObject({ membershipTier: 'standard', points: 3300 });
      expect(await status(leaving)).toMatchObject({ membershipTier: 'creator', pendingDowngradeTier: 'free' });
      // 10 February 09:00:01 Tokyo: one month after the upgrades, renewals are due.
      ctx.clock.set(new Date('2032-02-10T00:00:01Z'));
      for (let i = 0; i < 2; i++)
        expect((await call(svc, undefined, 'POST', '/internal/test/run-jobs')).status).toBe(200);
      expect(await status(payer)).toMatchObject({
        membershipTier: 'standard',
        points: 300,
        notice: null,
        renewsAt: '2032-03-10T00:00:01.000Z',
        renewalPoints: 3000,
      });
      expect(await status(poor)).toMatchObject({ membershipTier: 'free', points: 300, notice: 'renewal-failed' });
      expect(await status(leaving)).toMatchObject({ membershipTier: 'free', points: 300, pendingDowngradeTier: null });
      // Once everything due is done, a run finds nobody to lock: the members are checked from one read of the plans.
      // This service hears every registration on the test NATS (new events), so a member another test registers
      // meanwhile is a trial long ended at this clock, due once: the next run finds nobody (a run that locked members
      // every time would never get there).
      let idle = await call(svc, undefined, 'POST', '/internal/test/run-jobs');
      for (let i = 0; i < 4 && idle.body.renewals.members > 0; i++)
        idle = await call(svc, undefined, 'POST', '/internal/test/run-jobs');
      expect(idle.body.renewals).toEqual({ members: 0, failed: 0 });
      await waitFor('the plan events', async () =>
        [poor, trial, leaving].every((id) => seen.filter((e) => e.userId === id).at(-1)?.tier === 'free'),
      );
    } finally {
      sub.unsubscribe();
      ctx.clock.set(null);
    }
    const payerHistory = (await call(svc, payer, 'GET', '/api/points/history')).body;
    expect(payerHistory.filter((r: { amount: number }) => r.amount === -3000)).toHaveLength(2);
    await checkLedger(svc);
  });
});

import { subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, checkLedger, credit, destroyBilling, registerMember, startBilling, type TestService } from './helpers';

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
    const up = await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard' });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ pointsConsumed: 3000, user: { id, membershipTier: 'standard', points: 5300 } });
    const up2 = await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator' });
    expect(up2.body).toMatchObject({ pointsConsumed: 5000, user: { membershipTier: 'creator', points: 300 } });
    const s = await status(id);
    expect(s).toMatchObject({ membershipTier: 'creator', monthlyPrice: 5000, notice: null });
    expect(s.nextRenewalAt).toBeTruthy();
  });

  it('charges once when two tabs upgrade at the same moment', async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 5700); // 6000: enough for two standard upgrades if they were both charged
    const [a, b] = await Promise.all([
      call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard' }),
      call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard' }),
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
      ['POST', '/api/membership/upgrade', { membershipTier: 'standard' }, 402, 'INSUFFICIENT_POINTS'],
      ['POST', '/api/membership/upgrade', { membershipTier: 'free' }, 400, 'VALIDATION'],
      ['POST', '/api/membership/upgrade', {}, 400, 'VALIDATION'],
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
    await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator' });
    const again = await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'standard' });
    expect(again.body.code).toBe('UPGRADE_NOT_ALLOWED');
  });

  it('reserves a downgrade for the 1st of next month (Tokyo), refuses a second one and cancels it', async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 5000);
    await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator' });
    svc.server.context.clock.set(new Date('2031-03-31T16:00:00Z')); // 1 April 01:00 in Tokyo
    try {
      const res = await call(svc, id, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'standard' });
      expect(res.body).toMatchObject({
        scheduledTier: 'standard',
        effectiveDate: '2031-05-01',
        effectiveMonth: 203105,
      });
      const second = await call(svc, id, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' });
      expect(second.body.code).toBe('DOWNGRADE_ALREADY_PENDING');
      const up = await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: 'creator' });
      expect(up.body.code).toBe('UPGRADE_NOT_ALLOWED');
      expect(await status(id)).toMatchObject({ pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 203105 });
      expect((await call(svc, id, 'DELETE', '/api/membership/cancel-downgrade')).body).toEqual({ ok: true });
      expect(await status(id)).toMatchObject({ membershipTier: 'creator', pendingDowngradeTier: null });
    } finally {
      svc.server.context.clock.set(null);
    }
  });

  it('ends a trial after 30 days, renews paid plans on the 1st once, applies due downgrades, and drops non-payers to free', async () => {
    const ctx = svc.server.context;
    const registeredAt = new Date('2032-01-05T00:00:00Z');
    ctx.clock.set(new Date('2032-01-10T00:00:00Z'));
    const trial = await registerMember(svc, { registeredAt });
    const payer = await registerMember(svc, { registeredAt });
    const poor = await registerMember(svc, { registeredAt });
    const leaving = await registerMember(svc, { registeredAt });
    await credit(svc, payer, 6000);
    await credit(svc, poor, 3000);
    await credit(svc, leaving, 5000);
    for (const [id, tier] of [
      [payer, 'standard'],
      [poor, 'standard'],
      [leaving, 'creator'],
    ] as const) {
      expect((await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: tier })).status).toBe(200);
    }
    await call(svc, leaving, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' });
    const seen: Array<{ userId: string; tier: string }> = [];
    const sub = ctx.nats.nc.subscribe(subjects.membershipChanged);
    (async () => {
      for await (const m of sub) seen.push(JSON.parse(new TextDecoder().decode(m.data)).data);
    })();
    try {
      // 1 February 00:00:01 Tokyo: the trial (registered 5 January) still has days left; renewals are due.
      ctx.clock.set(new Date('2032-01-31T15:00:01Z'));
      for (let i = 0; i < 2; i++)
        expect((await call(svc, undefined, 'POST', '/internal/test/run-jobs')).status).toBe(200);
      expect(await status(trial)).toMatchObject({ membershipTier: 'trial', notice: null });
      expect(await status(payer)).toMatchObject({ membershipTier: 'standard', points: 300, notice: null });
      expect(await status(poor)).toMatchObject({ membershipTier: 'free', points: 300, notice: 'renewal-failed' });
      expect(await status(leaving)).toMatchObject({ membershipTier: 'free', points: 300, pendingDowngradeTier: null });
      // 4 February 00:00 UTC: 30 days after registration.
      ctx.clock.set(new Date('2032-02-04T00:00:00Z'));
      await call(svc, undefined, 'POST', '/internal/test/run-jobs');
      expect(await status(trial)).toMatchObject({ membershipTier: 'free', notice: 'trial-ended' });
      // Once everything due is done, a run finds nobody to lock: the members are checked from one read of the plans.
      const idle = await call(svc, undefined, 'POST', '/internal/test/run-jobs');
      expect(idle.body.renewals).toEqual({ members: 0, failed: 0 });
      await new Promise((r) => setTimeout(r, 300));
      expect(seen.filter((e) => e.userId === poor).at(-1)?.tier).toBe('free');
      expect(seen.filter((e) => e.userId === trial).at(-1)?.tier).toBe('free');
    } finally {
      sub.unsubscribe();
      ctx.clock.set(null);
    }
    const payerHistory = (await call(svc, payer, 'GET', '/api/points/history')).body;
    expect(payerHistory.filter((r: { amount: number }) => r.amount === -3000)).toHaveLength(2);
    await checkLedger(svc);
  });
});

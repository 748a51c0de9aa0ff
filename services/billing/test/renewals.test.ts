import { randomUUID } from 'node:crypto';
import { subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  checkLedger,
  credit,
  destroyBilling,
  registerMember,
  serviceCall,
  startBilling,
  type TestService,
} from './helpers';

/**
 * Fair plans: a paid month starts when it is paid and each member renews on their own day, once per
 * period, whichever of two instances runs the job and however often; the upgrade is bought at the cost the member
 * confirmed; the dashboard's earnings count sales only. Time moves with the service's test clock.
 */
let svc: TestService;
let second: TestService;
beforeAll(async () => {
  svc = await startBilling();
  second = await startBilling({ share: svc }); // a second instance on the same database
});
afterAll(async () => {
  await second?.close();
  svc.server.context.clock.set(null);
  await destroyBilling(svc);
});

const instances = () => [svc, second];
const setClock = (at: Date | null) => {
  for (const s of instances()) s.server.context.clock.set(at);
};
const status = async (id: string) => (await call(svc, id, 'GET', '/api/membership/status')).body;
const balance = (id: string) => svc.server.context.data.ledger.balance(id);

/** Both instances run the jobs at `at`, at the same time, twice. */
async function runJobsAt(at: Date) {
  setClock(at);
  for (let round = 0; round < 2; round++) {
    const answers = await Promise.all(instances().map((s) => call(s, undefined, 'POST', '/internal/test/run-jobs')));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
  }
}

/** The member's renewal charges, oldest first: [key, amount]. */
async function renewals(id: string): Promise<Array<[string, number]>> {
  const rows = await svc.server.context.data.ledger.history(id);
  return rows
    .filter((r) => r.key.startsWith(`renewal:${id}:`))
    .sort((a, b) => a.seq - b.seq)
    .map((r) => [r.key, r.amount]);
}

/**
 * Runs the jobs just before and at every due instant of the members (in time order, on both instances) and checks
 * after each run that every member has been charged exactly once per period that has begun, never before its day.
 */
async function expectRenewalsOn(members: Array<{ id: string; dues: string[]; price: number }>) {
  const instants = [...new Set(members.flatMap((m) => m.dues))].sort();
  for (const due of instants) {
    for (const at of [new Date(Date.parse(due) - 1), new Date(due)]) {
      await runJobsAt(at);
      for (const m of members) {
        const begun = m.dues.filter((d) => Date.parse(d) <= at.getTime());
        const months = begun.map((d) => {
          const tokyo = new Date(Date.parse(d) + 9 * 3600_000);
          return `renewal:${m.id}:${tokyo.getUTCFullYear() * 100 + tokyo.getUTCMonth() + 1}`;
        });
        expect(await renewals(m.id), `${m.id} at ${at.toISOString()}`).toEqual(months.map((k) => [k, -m.price]));
      }
    }
  }
}

async function upgradeAt(id: string, at: string, tier: 'standard' | 'creator' = 'standard') {
  setClock(new Date(at));
  const offers = (await status(id)).upgradeOffers as Array<{ membershipTier: string; cost: number }>;
  const cost = offers.find((o) => o.membershipTier === tier)?.cost;
  const res = await call(svc, id, 'POST', '/api/membership/upgrade', { membershipTier: tier, expectedCost: cost });
  expect(res.status).toBe(200);
  return res.body;
}

describe('renewal on the member’s own day', () => {
  it('a trial member upgrading on 26 November pays 3,000 once, then once on 26 December, January and February', async () => {
    try {
      setClock(new Date('2026-11-20T00:00:00Z'));
      const id = await registerMember(svc, { registeredAt: new Date('2026-11-20T00:00:00Z') });
      await credit(svc, id, 12_000); // the upgrade and three renewals: 300 left

      setClock(new Date('2026-11-26T05:00:00Z')); // 26 November 14:00 in Tokyo
      const offer = (await status(id)).upgradeOffers.find(
        (o: { membershipTier: string }) => o.membershipTier === 'standard',
      );
      // what the confirmation shows: 3,000 now, next 3,000 on 26 December
      expect(offer).toEqual({
        membershipTier: 'standard',
        cost: 3000,
        renewsAt: '2026-12-26T05:00:00.000Z',
        renewalPoints: 3000,
      });
      const up = await upgradeAt(id, '2026-11-26T05:00:00Z');
      expect(up).toMatchObject({
        pointsConsumed: 3000,
        user: { membershipTier: 'standard', points: 9300, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 3000 },
      });
      expect(await status(id)).toMatchObject({
        membershipTier: 'standard',
        renewsAt: '2026-12-26T05:00:00.000Z',
        renewalPoints: 3000,
      });

      // the 1st of December is nobody's renewal day any more: five days after paying, nothing is charged
      await runJobsAt(new Date('2026-11-30T15:00:01Z'));
      expect(await renewals(id)).toEqual([]);
      expect(await balance(id)).toBe(9300);

      await expectRenewalsOn([
        {
          id,
          price: 3000,
          dues: ['2026-12-26T05:00:00.000Z', '2027-01-26T05:00:00.000Z', '2027-02-26T05:00:00.000Z'],
        },
      ]);
      // later runs in the same period change nothing
      await runJobsAt(new Date('2027-03-25T00:00:00Z'));
      expect(await renewals(id)).toHaveLength(3);
      expect(await balance(id)).toBe(300);
      expect(await status(id)).toMatchObject({
        membershipTier: 'standard',
        renewsAt: '2027-03-26T05:00:00.000Z',
        renewalPoints: 3000,
      });
      const upgrades = (await svc.server.context.data.ledger.history(id)).filter((r) => r.key.startsWith('upgrade:'));
      expect(upgrades.map((r) => r.amount)).toEqual([-3000]);
      await checkLedger(svc);
    } finally {
      setClock(null);
    }
  });

  it('upgrades on the 28th and on the 31st renew on that day, or the last day of a shorter month', async () => {
    try {
      setClock(new Date('2029-01-20T00:00:00Z'));
      const on28 = await registerMember(svc, { registeredAt: new Date('2029-01-20T00:00:00Z') });
      const on31 = await registerMember(svc, { registeredAt: new Date('2029-01-20T00:00:00Z') });
      await credit(svc, on28, 12_000);
      await credit(svc, on31, 20_000);
      // 09:00 in Tokyo on 28 and 31 January 2029
      expect((await upgradeAt(on28, '2029-01-28T00:00:00Z')).user.renewsAt).toBe('2029-02-28T00:00:00.000Z');
      expect((await upgradeAt(on31, '2029-01-31T00:00:00Z', 'creator')).user.renewsAt).toBe('2029-02-28T00:00:00.000Z');
      await expectRenewalsOn([
        {
          id: on28,
          price: 3000,
          dues: ['2029-02-28T00:00:00.000Z', '2029-03-28T00:00:00.000Z', '2029-04-28T00:00:00.000Z'],
        },
        {
          id: on31,
          price: 5000,
          dues: ['2029-02-28T00:00:00.000Z', '2029-03-31T00:00:00.000Z', '2029-04-30T00:00:00.000Z'],
        },
      ]);
      expect((await status(on31)).renewsAt).toBe('2029-05-31T00:00:00.000Z');
      expect((await status(on28)).renewsAt).toBe('2029-05-28T00:00:00.000Z');
      await checkLedger(svc);
    } finally {
      setClock(null);
    }
  });

  it('a member stored before renewal dates (no anchor) still renews on the 1st at 00:00 Tokyo', async () => {
    try {
      setClock(new Date('2030-09-20T00:00:00Z'));
      const id = await registerMember(svc, { registeredAt: new Date('2030-09-01T00:00:00Z') });
      await credit(svc, id, 6000);
      const first = await svc.server.context.data.memberships.current(id);
      // the plan as the code before this change stored it: upgraded in October, paid for October, no renewalAnchor
      await svc.server.context.conn.collection('memberships').insertOne({
        _id: randomUUID() as never,
        memberId: id,
        seq: (first?.seq ?? 1) + 1,
        tier: 'standard',
        registeredAt: new Date('2030-09-01T00:00:00Z'),
        pendingDowngradeTier: null,
        downgradeEffectiveMonth: null,
        paidMonth: 203010,
        notice: null,
        reason: 'upgrade to standard',
        createdAt: new Date('2030-10-10T00:00:00Z'),
        announced: true,
      });
      setClock(new Date('2030-10-15T00:00:00Z'));
      expect(await status(id)).toMatchObject({
        membershipTier: 'standard',
        renewsAt: '2030-10-31T15:00:00.000Z', // 1 November 00:00 in Tokyo
        renewalPoints: 3000,
      });
      await expectRenewalsOn([{ id, price: 3000, dues: ['2030-10-31T15:00:00.000Z', '2030-11-30T15:00:00.000Z'] }]);
      expect(await status(id)).toMatchObject({ renewsAt: '2030-12-31T15:00:00.000Z' });
    } finally {
      setClock(null);
    }
  });
});

describe('buying at the cost the member saw', () => {
  it('another cost than the current one is refused with PRICE_CHANGED and the current price; nothing is charged', async () => {
    const id = await registerMember(svc);
    await credit(svc, id, 3000);
    const before = await svc.server.context.data.ledger.history(id);
    // a page that showed an older price list
    const stale = await call(svc, id, 'POST', '/api/membership/upgrade', {
      membershipTier: 'standard',
      expectedCost: 2500,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'PRICE_CHANGED', details: { price: 3000 } });
    expect(await svc.server.context.data.ledger.history(id)).toHaveLength(before.length);
    expect(await balance(id)).toBe(3300);
    expect(await status(id)).toMatchObject({ membershipTier: 'trial', points: 3300 });
    // asked again with the current cost, it goes through
    const again = await call(svc, id, 'POST', '/api/membership/upgrade', {
      membershipTier: 'standard',
      expectedCost: stale.body.details.price,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ pointsConsumed: 3000, user: { membershipTier: 'standard', points: 300 } });
  });
});

describe('the dashboard’s earnings from sales', () => {
  it('count sale proceeds only: the registration bonus alone reads 0; after a sale, its net', async () => {
    const seller = await registerMember(svc);
    const summary = async () => (await call(svc, seller, 'GET', '/api/points/summary')).body;
    // the Points screen still counts every earn row
    expect(await summary()).toMatchObject({ earnedThisMonth: 300, salesThisMonth: 0 });

    const buyer = await registerMember(svc);
    await credit(svc, buyer, 2700);
    const sale = await serviceCall(svc, 'POST', '/internal/transfers', {
      transferId: randomUUID(),
      buyerId: buyer,
      sellerId: seller,
      fileId: 'f1',
      price: 3000,
    });
    expect(sale.body).toMatchObject({ status: 'applied', net: 2000 });
    expect(await summary()).toMatchObject({ earnedThisMonth: 2300, salesThisMonth: 2000 });
    expect((await call(svc, buyer, 'GET', '/api/points/summary')).body).toMatchObject({ salesThisMonth: 0 });

    // The read models (file-conversion's dashboard sums) are told which earn row is a sale: the events as the
    // outbox stored them beside each entry (sent or not yet), read from its collections rather than a live
    // subscription, which a slow publish or a duplicate delivery made flaky.
    const stored = await svc.server.context.outbox.entries({ subject: subjects.pointsChanged });
    const mine = stored
      .map((e) => e.data as { userId: string; amount?: number; sale?: boolean })
      .filter((d) => d.userId === seller)
      .map((d) => [d.amount, d.sale ?? false])
      .sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(mine).toEqual([
      [300, false],
      [2000, true],
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { type PointsEntryReason, PointsHistory, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ACCOUNT } from '../src/domain/fees';
import {
  call,
  destroyBilling,
  publishEvent,
  registerMember,
  serviceCall,
  startBilling,
  type TestService,
  waitFor,
} from './helpers';

/**
 * Nothing billing stores is a sentence. Every history row comes back with its reason (a code and its
 * parameters) for the reader's front end to word, and the spec's `description` in Japanese; rows stored before
 * reasons, with their Japanese sentence only, come back with the reason read from it.
 */
let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  svc.server.context.clock.set(null);
  await destroyBilling(svc);
});

const setClock = (at: string) => svc.server.context.clock.set(new Date(at));
const balance = (id: string) => svc.server.context.data.ledger.balance(id);
const ledgerRows = () => svc.server.context.conn.collection('point_transactions');

async function history(id: string) {
  const res = await call(svc, id, 'GET', '/api/points/history');
  expect(res.status).toBe(200);
  return PointsHistory.parse(res.body);
}

/** A card purchase of a package, confirmed on the server with localstripe's test card. */
async function buyPoints(member: string, amount: number) {
  const intent = await call(svc, member, 'POST', '/api/create-payment-intent', { amount });
  expect(intent.status).toBe(200);
  const paid = await call(svc, member, 'POST', '/api/points/confirm-payment', {
    paymentIntentId: intent.body.paymentIntentId,
    paymentMethodId: 'pm_card_visa',
  });
  expect(paid.status).toBe(200);
}

describe('the points history', () => {
  it('gives each kind of row its reason and parameters, the spec’s description in Japanese, and stores no sentence', async () => {
    try {
      setClock('2026-11-20T00:00:00Z');
      const member = await registerMember(svc, { registeredAt: new Date('2026-11-20T00:00:00Z') });
      await publishEvent(svc, subjects.userMigrated, { userId: member, bonusPoints: 100 });
      await waitFor('the migration bonus', async () => (await balance(member)) === 400);
      await buyPoints(member, 10_000);

      setClock('2026-11-26T05:00:00Z'); // 14:00 in Tokyo: the first renewal falls on 26 December
      const up = await call(svc, member, 'POST', '/api/membership/upgrade', {
        membershipTier: 'standard',
        expectedCost: 3000,
      });
      expect(up.status).toBe(200);
      setClock('2026-12-26T05:00:00Z');
      expect((await call(svc, undefined, 'POST', '/internal/test/run-jobs')).status).toBe(200);
      expect(await balance(member)).toBe(4400);

      const seller = await registerMember(svc);
      const fileId = randomUUID();
      const sold = await serviceCall(svc, 'POST', '/internal/transfers', {
        transferId: randomUUID(),
        buyerId: member,
        sellerId: seller,
        fileId,
        price: 3000,
        description: 'Quarterly review',
      });
      expect(sold.body.status).toBe('applied');

      const rows = await history(member);
      expect(rows.map((r) => [r.type, r.amount, r.reason, r.description])).toEqual([
        ['spend', -3000, { kind: 'purchase', title: 'Quarterly review' }, 'Quarterly review'],
        ['spend', -3000, { kind: 'renewal', tier: 'standard', month: 202612 }, '月額プラン（スタンダード）202612'],
        ['spend', -3000, { kind: 'upgrade', tier: 'standard' }, 'プランアップグレード（スタンダード）'],
        ['purchase', 10_000, { kind: 'pointsPurchase', points: 10_000 }, 'ポイント購入（10,000ポイント）'],
        ['earn', 100, { kind: 'migrationBonus' }, 'アカウント移行ボーナス'],
        ['earn', 300, { kind: 'registrationBonus' }, '新規登録ボーナス'],
      ]);
      const sellerRows = await history(seller);
      expect(sellerRows[0]).toMatchObject({
        type: 'earn',
        amount: 2000,
        reason: { kind: 'sale', title: 'Quarterly review' },
        description: '販売: Quarterly review',
        relatedFileId: fileId,
      });
      const fee = (await history(PLATFORM_ACCOUNT)).find((r) => r.relatedFileId === fileId);
      expect(fee).toMatchObject({ amount: 1000, reason: { kind: 'platformFee' }, description: '手数料' });

      // what is stored: the reason, and no sentence
      const stored = await ledgerRows()
        .find({ accountId: { $in: [member, seller] } })
        .toArray();
      expect(stored).toHaveLength(8);
      for (const entry of stored) {
        expect(entry.reason).toMatchObject({ kind: expect.any(String) });
        expect(entry).not.toHaveProperty('description');
      }
    } finally {
      svc.server.context.clock.set(null);
    }
  });

  it('reads a row stored the old way, with its Japanese sentence only, back as its reason', async () => {
    const member = randomUUID();
    const old: Array<[string, string, number, PointsEntryReason | null]> = [
      ['新規登録ボーナス', `opening:${member}`, 300, { kind: 'registrationBonus' }],
      ['アカウント移行ボーナス', `migration:${member}`, 100, { kind: 'migrationBonus' }],
      ['ポイント購入（10,000ポイント）', 'payment:pi_old', 10_000, { kind: 'pointsPurchase', points: 10_000 }],
      ['プランアップグレード（クリエイター）', `upgrade:${member}:2`, -5000, { kind: 'upgrade', tier: 'creator' }],
      [
        '月額プラン（クリエイター）202612',
        `renewal:${member}:202612`,
        -5000,
        { kind: 'renewal', tier: 'creator', month: 202612 },
      ],
      ['Annual report', 'transfer:old-1:buyer', -3000, { kind: 'purchase', title: 'Annual report' }],
      ['コンテンツ購入', 'transfer:old-2:buyer', -3000, { kind: 'purchase', title: null }],
      ['販売: My slides', 'transfer:old-3:seller', 3500, { kind: 'sale', title: 'My slides' }],
      ['コンテンツ販売', 'transfer:old-4:seller', 2000, { kind: 'sale', title: null }],
      // a text billing never wrote: shown as stored, without a reason
      ['ポイント調整（サポート）', `adjust:${member}`, 50, null],
    ];
    let running = 0;
    await ledgerRows().insertMany(
      old.map(([description, key, amount], i) => {
        running += amount;
        return {
          _id: `${member}:${i + 1}` as never,
          accountId: member,
          seq: i + 1,
          balance: running,
          amount,
          type: amount < 0 ? 'spend' : key.startsWith('payment:') ? 'purchase' : 'earn',
          description,
          key,
          relatedFileId: null,
          paymentIntentId: null,
          meta: null,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
          announced: true,
        };
      }),
    );
    const rows = await history(member);
    expect(rows.map((r) => [r.reason, r.description])).toEqual(
      old.map(([description, , , reason]) => [reason, description]).reverse(),
    );
  });
});

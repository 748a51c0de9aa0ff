import type { PointsEntryReason } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { describeJa, reasonFromStored } from './history';

// Every sentence billing stored before reasons, with the key it was stored under.
const stored: Array<[string, string, PointsEntryReason]> = [
  ['新規登録ボーナス', 'opening:m1', { kind: 'registrationBonus' }],
  ['アカウント移行ボーナス', 'migration:m1', { kind: 'migrationBonus' }],
  ['ポイント購入（1,000ポイント）', 'payment:pi_1', { kind: 'pointsPurchase', points: 1000 }],
  ['ポイント購入（10,000ポイント）', 'payment:pi_2', { kind: 'pointsPurchase', points: 10000 }],
  ['プランアップグレード（スタンダード）', 'upgrade:m1:2', { kind: 'upgrade', tier: 'standard' }],
  ['プランアップグレード（クリエイター）', 'upgrade:m1:3', { kind: 'upgrade', tier: 'creator' }],
  ['月額プラン（スタンダード）202611', 'renewal:m1:202611', { kind: 'renewal', tier: 'standard', month: 202611 }],
  ['月額プラン（クリエイター）202701', 'renewal:m1:202701', { kind: 'renewal', tier: 'creator', month: 202701 }],
  ['月額プラン（3000point）202612', 'renewal:m1:202612', { kind: 'renewal', tier: '3000point', month: 202612 }],
  // a purchase's row held the file's title alone, or the default
  ['Quarterly deck', 'transfer:t1:buyer', { kind: 'purchase', title: 'Quarterly deck' }],
  ['新規登録ボーナス', 'transfer:t2:buyer', { kind: 'purchase', title: '新規登録ボーナス' }],
  ['コンテンツ購入', 'transfer:t3:buyer', { kind: 'purchase', title: null }],
  ['販売: Quarterly deck', 'transfer:t1:seller', { kind: 'sale', title: 'Quarterly deck' }],
  ['販売: 販売: 二重', 'transfer:t4:seller', { kind: 'sale', title: '販売: 二重' }],
  ['コンテンツ販売', 'transfer:t3:seller', { kind: 'sale', title: null }],
  ['手数料 t1', 'transfer:t1:fee', { kind: 'platformFee' }],
];

describe('history reasons', () => {
  it.each(stored)('reads the stored sentence %s (key %s) back as its reason', (description, key, reason) => {
    expect(reasonFromStored({ description, key })).toEqual(reason);
  });

  it('words every reason in Japanese as it was stored, and reads that wording back', () => {
    for (const [description, key, reason] of stored) {
      if (reason.kind === 'platformFee') continue; // the fee's id is in its key, no longer in a text
      expect(describeJa(reason)).toBe(description);
      expect(reasonFromStored({ description: describeJa(reason), key })).toEqual(reason);
    }
    expect(describeJa({ kind: 'platformFee' })).toBe('手数料');
    expect(describeJa({ kind: 'renewal', tier: 'trial', month: 202601 })).toBe('月額プラン（trial）202601');
  });

  it('knows no reason for a text it never wrote, or a known one with parts it cannot read', () => {
    expect(reasonFromStored({ description: 'ポイント調整', key: 'adjust:1' })).toBeNull();
    expect(reasonFromStored({ description: 'プランアップグレード（ゴールド）', key: 'upgrade:m1:2' })).toBeNull();
    expect(reasonFromStored({ description: '月額プラン（スタンダード）2026', key: 'renewal:m1:2026' })).toBeNull();
    expect(reasonFromStored({ description: 'ポイント購入（0ポイント）', key: 'payment:pi_3' })).toBeNull();
    expect(reasonFromStored({ description: '', key: 'x' })).toBeNull();
    expect(reasonFromStored({ key: 'x' })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { monthlySums, nextEntry } from './ledger';

describe('ledger rules', () => {
  const now = new Date('2026-11-22T00:00:00Z');

  it('starts an account at sequence 1 with the amount as balance', () => {
    expect(nextEntry(null, 300, now)).toEqual({ seq: 1, balance: 300, createdAt: now });
  });

  it('never lets the balance go below zero, but allows exactly zero', () => {
    const head = { seq: 4, balance: 3000, createdAt: now };
    expect(nextEntry(head, -3001, now)).toBeNull();
    expect(nextEntry(head, -3000, now)).toMatchObject({ seq: 5, balance: 0 });
    expect(nextEntry(null, -1, now)).toBeNull();
  });

  it("keeps an account's entry times strictly increasing even when the clock is behind", () => {
    const head = { seq: 1, balance: 10, createdAt: new Date(now.getTime() + 5000) };
    expect(nextEntry(head, 1, now)?.createdAt.getTime()).toBe(now.getTime() + 5001);
  });

  it('sums a month as the Points screen does: earn adds, spend adds its absolute value, purchase adds', () => {
    expect(
      monthlySums([
        { type: 'earn', amount: 300, key: 'opening:m' },
        { type: 'spend', amount: -3000, key: 'upgrade:m:2' },
        { type: 'purchase', amount: 5000, key: 'payment:pi_1' },
        { type: 'earn', amount: 2000, key: 'transfer:t1:seller' },
        { type: 'spend', amount: -100, key: 'transfer:t2:buyer' },
      ]),
    ).toEqual({ earned: 2300, sold: 2000, spent: 3100, purchased: 5000 });
  });

  it("counts as sold only a transfer's seller leg: not a bonus, a migration bonus or the platform's fee", () => {
    const sold = (key: string) => monthlySums([{ type: 'earn', amount: 100, key }]).sold;
    expect(sold('transfer:t1:seller')).toBe(100);
    expect(sold('opening:m')).toBe(0);
    expect(sold('migration:m')).toBe(0);
    expect(sold('transfer:t1:fee')).toBe(0);
  });
});

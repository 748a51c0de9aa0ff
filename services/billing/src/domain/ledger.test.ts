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
        { type: 'earn', amount: 300 },
        { type: 'spend', amount: -3000 },
        { type: 'purchase', amount: 5000 },
        { type: 'earn', amount: 2000 },
        { type: 'spend', amount: -100 },
      ]),
    ).toEqual({ earned: 2300, spent: 3100, purchased: 5000 });
  });
});

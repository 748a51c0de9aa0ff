import { describe, expect, it } from 'vitest';
import { constants, feeSplitFor, pricePlanFor, pricePlans } from './constants';
import { PublishPrice } from './validation';

describe('price plans', () => {
  it('keeps the fee and pays the seller the net of the spec', () => {
    expect(pricePlans.map((p) => [p.value, p.fee, p.net])).toEqual([
      [3000, 1000, 2000],
      [5000, 1500, 3500],
      [10000, 3000, 7000],
    ]);
    for (const plan of pricePlans) expect(plan.fee + plan.net).toBe(plan.value);
  });

  it('labels the plans and knows no other price', () => {
    expect(pricePlanFor(3000)?.label).toBe('popular');
    expect(pricePlanFor(5000)?.label).toBe('recommended');
    expect(pricePlanFor(10000)?.label).toBe('premium');
    expect(pricePlanFor(4000)).toBeUndefined();
  });
});

describe('the fee table of a sale (spec point 9)', () => {
  it.each([
    [3000, 1000, 2000],
    [5000, 1500, 3500],
    [10000, 3000, 7000],
  ])('a sale at %i keeps a fee of %i and pays the seller %i', (price, fee, net) => {
    expect(feeSplitFor(price)).toEqual({ fee, net });
  });

  it.each([0, 1, 2999, 3001, 4000, 9000, 10001, 100000, -3000, 3000.5, Number.NaN])(
    'has no split for %s, a price off the table (no invented rate)',
    (price) => {
      expect(feeSplitFor(price)).toBeUndefined();
    },
  );

  it('splits exactly the prices that publishing accepts, so a listing never has a price off the table', () => {
    for (const price of [0, 1000, 2999, 3000, 4000, 5000, 7000, 10000, 12000, 30000]) {
      expect(feeSplitFor(price) !== undefined, String(price)).toBe(PublishPrice.safeParse(price).success);
    }
  });
});

describe('limits', () => {
  it('has the file limit of every tier', () => {
    for (const tier of constants.membershipTiers) expect(constants.fileLimits[tier]).toBeGreaterThan(0);
    expect(constants.fileLimits).toMatchObject({ free: 3, trial: 3, standard: 30, creator: 50 });
    expect(constants.upload.maxBytes).toBe(10 * 1024 * 1024);
  });
});

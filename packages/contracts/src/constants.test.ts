import { describe, expect, it } from 'vitest';
import { constants, pricePlanFor, pricePlans } from './constants';

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

describe('limits', () => {
  it('has the file limit of every tier', () => {
    for (const tier of constants.membershipTiers) expect(constants.fileLimits[tier]).toBeGreaterThan(0);
    expect(constants.fileLimits).toMatchObject({ free: 3, trial: 3, standard: 30, creator: 50 });
    expect(constants.upload.maxBytes).toBe(10 * 1024 * 1024);
  });
});

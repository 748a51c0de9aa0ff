import { describe, expect, it } from 'vitest';
// billing charges by the one fee table of packages/contracts (the marketplace asks by the same one)
import { feeSplitFor } from '@pagecast/contracts';

describe('transfer fees (spec point 9)', () => {
  it.each([
    [3000, 1000, 2000],
    [5000, 1500, 3500],
    [10000, 3000, 7000],
  ])('price %i → fee %i, net %i, and fee + net = price', (price, fee, net) => {
    expect(feeSplitFor(price)).toEqual({ fee, net });
    expect(fee + net).toBe(price);
  });

  it.each([0, 1, 2999, 4000, 100000, -3000])('refuses the price %i that is no plan', (price) => {
    expect(feeSplitFor(price)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { licenceEnd, purchaseClaimKey, purchaseRefusal } from './purchase';

describe('purchase rules', () => {
  const base = {
    buyerId: 'b',
    tier: 'standard' as const,
    listing: { sellerId: 's', publishPrice: 3000 },
    holdsActiveLicence: false,
    expectedPrice: 3000,
  };
  it('refuses free members, missing listings, own files and a licence still running, in that order', () => {
    expect(purchaseRefusal(base)).toBeUndefined();
    expect(purchaseRefusal({ ...base, tier: 'trial' })).toBeUndefined();
    expect(purchaseRefusal({ ...base, tier: 'free' })).toBe('FREE_TIER_CANNOT_PURCHASE');
    expect(purchaseRefusal({ ...base, listing: null })).toBe('LISTING_NOT_FOUND');
    expect(purchaseRefusal({ ...base, listing: { sellerId: 'b', publishPrice: 3000 } })).toBe('CANNOT_BUY_OWN_FILE');
    expect(purchaseRefusal({ ...base, holdsActiveLicence: true })).toBe('ALREADY_PURCHASED');
  });
  it('refuses a price other than the one the buyer confirmed, after the other refusals', () => {
    const dearer = { ...base, listing: { sellerId: 's', publishPrice: 10000 } };
    expect(purchaseRefusal(dearer)).toBe('PRICE_CHANGED');
    expect(purchaseRefusal({ ...base, expectedPrice: 5000 })).toBe('PRICE_CHANGED');
    expect(purchaseRefusal({ ...dearer, expectedPrice: 10000 })).toBeUndefined();
    expect(purchaseRefusal({ ...dearer, holdsActiveLicence: true })).toBe('ALREADY_PURCHASED');
    expect(purchaseRefusal({ ...dearer, tier: 'free' })).toBe('FREE_TIER_CANNOT_PURCHASE');
  });
  it('sells nothing at a price off the fee table, even when the buyer confirmed that price', () => {
    const off = { ...base, listing: { sellerId: 's', publishPrice: 4000 }, expectedPrice: 4000 };
    expect(purchaseRefusal(off)).toBe('LISTING_NOT_FOUND');
  });
  it('ends a licence 30 days after the purchase', () => {
    expect(licenceEnd(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });
  it('keys a purchase by buyer, file and generation', () => {
    expect(purchaseClaimKey('b', 'f', 0)).not.toBe(purchaseClaimKey('b', 'f', 1));
  });
});

import { describe, expect, it } from 'vitest';
import { uuidFrom } from './ids';
import { licenceEnd, purchaseClaimKey, purchaseRefusal, splitPrice } from './purchase';

describe('purchase rules', () => {
  const base = { buyerId: 'b', tier: 'standard' as const, listing: { sellerId: 's' }, holdsActiveLicence: false };
  it('refuses free members, missing listings, own files and a licence still running, in that order', () => {
    expect(purchaseRefusal(base)).toBeUndefined();
    expect(purchaseRefusal({ ...base, tier: 'trial' })).toBeUndefined();
    expect(purchaseRefusal({ ...base, tier: 'free' })).toBe('FREE_TIER_CANNOT_PURCHASE');
    expect(purchaseRefusal({ ...base, listing: null })).toBe('LISTING_NOT_FOUND');
    expect(purchaseRefusal({ ...base, listing: { sellerId: 'b' } })).toBe('CANNOT_BUY_OWN_FILE');
    expect(purchaseRefusal({ ...base, holdsActiveLicence: true })).toBe('ALREADY_PURCHASED');
  });
  it("splits a price by the fee table of the spec's point 9", () => {
    expect(splitPrice(3000)).toEqual({ sellerNet: 2000, platformFee: 1000 });
    expect(splitPrice(5000)).toEqual({ sellerNet: 3500, platformFee: 1500 });
    expect(splitPrice(10000)).toEqual({ sellerNet: 7000, platformFee: 3000 });
  });
  it('ends a licence 30 days after the purchase', () => {
    expect(licenceEnd(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });
  it('keys a purchase by buyer, file and generation', () => {
    expect(purchaseClaimKey('b', 'f', 0)).not.toBe(purchaseClaimKey('b', 'f', 1));
  });
  it('derives stable UUIDs', () => {
    expect(uuidFrom('x')).toBe(uuidFrom('x'));
    expect(uuidFrom('x')).not.toBe(uuidFrom('y'));
    expect(uuidFrom('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

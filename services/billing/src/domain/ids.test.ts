import { describe, expect, it } from 'vitest';
import { uuidFrom } from './ids';

// Event ids are stored (the outbox's _id, consumers' records of what they handled): a rerun after an upgrade must
// give the same id as before it, so the derivation (SHA-256 of the name, version nibble 5) is pinned here.
describe('uuidFrom', () => {
  it.each([
    ['billing.points.changed:6650f0c2a1b2c3d4e5f60718', '95ac7873-9690-5172-8356-863c6e1c2e4d'],
    ['billing.membership.changed:u-1', '7080d917-883e-5c17-b7e2-21f270df145a'],
    ['', 'e3b0c442-98fc-5c14-9afb-f4c8996fb924'],
  ])('gives %j the id it has always had', (name, id) => {
    expect(uuidFrom(name)).toBe(id);
  });
});

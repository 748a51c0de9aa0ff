import { describe, expect, it } from 'vitest';
import { uuidFrom } from './ids';

// Event ids are stored (the outbox's _id, consumers' records of what they handled): a rerun after an upgrade must
// give the same id as before it, so the derivation (SHA-256 of the name, version nibble 5) is pinned here.
describe('uuidFrom', () => {
  it.each([
    ['purchase-completed:6650f0c2a1b2c3d4e5f60718', '3c582b6a-daa8-5197-b51c-6d7c1781b359'],
    ['licence-expired:6650f0c2a1b2c3d4e5f60719', '6fc394c3-53ed-5d16-ab30-a8ce82eb7d2f'],
  ])('gives %j the id it has always had', (name, id) => {
    expect(uuidFrom(name)).toBe(id);
  });
});

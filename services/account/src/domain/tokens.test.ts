import { describe, expect, it } from 'vitest';
import { stableUuid } from './tokens';

// Event ids are stored (the outbox's _id, consumers' records of what they handled): a rerun after an upgrade must
// give the same id as before it, so the derivation (SHA-256 of the name, RFC 9562 version 8) is pinned here.
describe('stableUuid', () => {
  it.each([
    ['account.user.registered:0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 'a1363636-7e8f-88e7-8add-76f12c07025a'],
    ['account.user.migrated:0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 'ca1e9615-bd79-85c5-8cae-974e280f4fb4'],
  ])('gives %j the id it has always had', (name, id) => {
    expect(stableUuid(name)).toBe(id);
  });
});

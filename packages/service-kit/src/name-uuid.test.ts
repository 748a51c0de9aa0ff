import { describe, expect, it } from 'vitest';
import { nameUuid } from './name-uuid';

// Event and job ids are stored (the outbox's _id, consumers' records of what they handled, JetStream's duplicate
// window): a rerun after an upgrade must give the id the name had before it. These are the ids the services' own
// derivations gave before they were folded into this one function (billing's and marketplace's uuidFrom, account's
// stableUuid, file-conversion's jobId).
describe('nameUuid', () => {
  it.each([
    ['billing.points.changed:6650f0c2a1b2c3d4e5f60718', 'v5', '95ac7873-9690-5172-8356-863c6e1c2e4d'],
    ['billing.membership.changed:u-1', 'v5', '7080d917-883e-5c17-b7e2-21f270df145a'],
    ['', 'v5', 'e3b0c442-98fc-5c14-9afb-f4c8996fb924'],
    ['purchase-completed:6650f0c2a1b2c3d4e5f60718', 'v5', '3c582b6a-daa8-5197-b51c-6d7c1781b359'],
    ['licence-expired:6650f0c2a1b2c3d4e5f60719', 'v5', '6fc394c3-53ed-5d16-ab30-a8ce82eb7d2f'],
    ['account.user.registered:0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 'v8', 'a1363636-7e8f-88e7-8add-76f12c07025a'],
    ['account.user.migrated:0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 'v8', 'ca1e9615-bd79-85c5-8cae-974e280f4fb4'],
    ['0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b:1', 'v4', 'dd99bd1f-6e3f-4092-8974-eb50a874d2a9'],
    ['0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b:2', 'v4', 'bdfe9206-c2b8-4ac9-880b-75bcae94dde2'],
  ] as const)('gives %j in layout %s the id it has always had', (name, layout, id) => {
    expect(nameUuid(name, layout)).toBe(id);
  });

  it('is a well-formed UUID of its version and the RFC variant, different for another name', () => {
    for (const [layout, version] of [
      ['v5', '5'],
      ['v8', '8'],
      ['v4', '4'],
    ] as const) {
      for (let i = 0; i < 64; i++) {
        const id = nameUuid(`name-${i}`, layout);
        expect(id).toMatch(
          new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-${version}[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
        );
        expect(id).not.toBe(nameUuid(`name-${i + 1}`, layout));
      }
    }
  });
});

// A member's role changed and the member removed at the same moment, against the real servers: the gateways' copy of
// the membership (the key-value bucket every gateway lets calls in by) must end as the database's row ends, never
// holding a role for someone the database no longer has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Harness, person, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_member_race');
});
afterAll(async () => {
  await h?.close();
});

describe('role change against removal', () => {
  it('after both, the bucket holds the row’s role, or nothing when the row is gone', async () => {
    const owner = await person(h, 'mrace-owner');
    const guest = await person(h, 'mrace-guest');
    const { workspaces } = h.server.context.data;
    const { memberships } = h.server.context;
    const path = `/api/workspaces/${owner.userId}/members/${guest.userId}`;
    const wrong: string[] = [];
    for (let round = 0; round < 30; round++) {
      // a member again (as an acceptance makes one), then both calls at once
      await workspaces.addMember({
        workspaceId: owner.userId,
        userId: guest.userId,
        role: 'viewer',
        addedAt: new Date(),
        addedBy: owner.userId,
      });
      await memberships.put(owner.userId, guest.userId, 'viewer');
      const [changed, removed] = await Promise.all([
        call(h, 'PATCH', path, { identity: owner.identity, body: { role: 'editor' } }),
        call(h, 'DELETE', path, { identity: owner.identity }),
      ]);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect([200, 404], JSON.stringify(changed.body)).toContain(changed.status);
      const row = await workspaces.member(owner.userId, guest.userId);
      const copy = await memberships.get(owner.userId, guest.userId);
      if ((row?.role ?? null) !== (copy ?? null))
        wrong.push(`round ${round}: row ${row?.role ?? 'none'}, bucket ${copy ?? 'none'} (PATCH ${changed.status})`);
      if (row) await workspaces.removeMember(owner.userId, guest.userId);
      await memberships.remove(owner.userId, guest.userId);
      await h.server.context.background.idle();
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

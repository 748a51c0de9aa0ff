import type { MembershipMirror, Repositories } from '../data';

/**
 * Puts back into the gateways' bucket every non-owner membership whose copy is missing or names another role (a
 * write lost after the database's): run at account's start. The database is the truth. Returns how many it wrote.
 */
export async function reconcileMemberships(
  data: Pick<Repositories, 'workspaces'>,
  memberships: MembershipMirror,
): Promise<number> {
  let written = 0;
  for await (const page of data.workspaces.guests()) {
    for (const row of page) {
      if ((await memberships.get(row.workspaceId, row.userId)) === row.role) continue;
      // read again under the membership's lock: a removal or a role change since the page was read wins
      const put = await data.workspaces.withMemberLock(row.workspaceId, row.userId, async () => {
        const now = await data.workspaces.member(row.workspaceId, row.userId);
        if (!now || now.role === 'owner') return false;
        await memberships.put(now.workspaceId, now.userId, now.role);
        return true;
      });
      if (put) written++;
    }
  }
  return written;
}

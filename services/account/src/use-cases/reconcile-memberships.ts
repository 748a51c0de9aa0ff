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
      await memberships.put(row.workspaceId, row.userId, row.role);
      written++;
    }
  }
  return written;
}

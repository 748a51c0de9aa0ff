import type { WorkspaceList } from '@pagecast/contracts';
import type { AccountDeps } from './deps';
import { createOwnWorkspace } from './own-workspace';
import { mustFindUser } from './shared';

/** The caller's workspaces with their role: their own first, then the others in the order they joined. */
export async function listWorkspaces(deps: AccountDeps, userId: string): Promise<WorkspaceList> {
  const { workspaces } = deps.data;
  let rows = await workspaces.membershipsOf(userId);
  if (!rows.some((r) => r.workspaceId === userId)) {
    // an account whose workspace was not made yet (a registration's background step lost): made now
    await createOwnWorkspace(deps.data, await mustFindUser(deps, userId), deps.clock.now());
    rows = await workspaces.membershipsOf(userId);
  }
  const found = await workspaces.findMany(rows.map((r) => r.workspaceId));
  const list = rows.flatMap((r) => {
    const ws = found.get(r.workspaceId);
    return ws
      ? [{ id: ws._id, name: ws.name, ownerId: ws._id, role: r.role, approvalRequired: ws.approvalRequired === true }]
      : [];
  });
  list.sort((a, b) => Number(b.id === userId) - Number(a.id === userId));
  return { workspaces: list };
}

import type { WorkspaceMember, WorkspaceMemberList } from '@pagecast/contracts';
import type { MemberRecord, UserRecord } from '../domain';
import type { AccountDeps } from './deps';
import { requireMember } from './workspace-access';

export function toWorkspaceMember(row: MemberRecord, user: UserRecord | undefined): WorkspaceMember {
  return {
    userId: row.userId,
    email: user?.email ?? '',
    firstName: user?.firstName ?? null,
    lastName: user?.lastName ?? null,
    role: row.role,
    addedAt: row.addedAt.toISOString(),
  };
}

/** Every member of the workspace, owner first; any member may read it. */
export async function listWorkspaceMembers(
  deps: AccountDeps,
  workspaceId: string,
  callerId: string,
): Promise<WorkspaceMemberList> {
  await requireMember(deps, workspaceId, callerId);
  const rows = await deps.data.workspaces.membersOf(workspaceId);
  rows.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
  const users = await deps.data.users.findMany(rows.map((r) => r.userId));
  return { members: rows.map((r) => toWorkspaceMember(r, users.get(r.userId))) };
}

// Steps the workspace operations share: whether the caller belongs to the workspace named in the path, and may manage
// its people. Checked here against the stored membership, whatever the gateway signed.
import { AppError } from '@pagecast/service-kit';
import { managesMembers, type MemberRecord } from '../domain';
import type { AccountDeps } from './deps';

/** The caller's membership of the workspace; not a member (or no such workspace): 403 NOT_A_MEMBER. */
export async function requireMember(deps: AccountDeps, workspaceId: string, userId: string): Promise<MemberRecord> {
  const row = await deps.data.workspaces.member(workspaceId, userId);
  if (!row) throw new AppError('NOT_A_MEMBER');
  return row;
}

/** The caller's membership when their role manages people (owner, admin); else 403 FORBIDDEN_ROLE. */
export async function requireManager(deps: AccountDeps, workspaceId: string, userId: string): Promise<MemberRecord> {
  const row = await requireMember(deps, workspaceId, userId);
  if (!managesMembers(row.role)) throw new AppError('FORBIDDEN_ROLE');
  return row;
}

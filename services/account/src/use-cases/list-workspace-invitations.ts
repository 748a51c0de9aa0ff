import type { WorkspaceInvitationList } from '@pagecast/contracts';
import type { AccountDeps } from './deps';
import { toWorkspaceInvitation } from './invite-to-workspace';
import { requireManager } from './workspace-access';

/** The invitations still open (not accepted, revoked or expired), newest first: owner and admins. */
export async function listWorkspaceInvitations(
  deps: AccountDeps,
  workspaceId: string,
  callerId: string,
): Promise<WorkspaceInvitationList> {
  await requireManager(deps, workspaceId, callerId);
  const list = await deps.data.workspaces.pendingInvitations(workspaceId, deps.clock.now());
  return { invitations: list.map(toWorkspaceInvitation) };
}

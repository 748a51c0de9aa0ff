import { AppError } from '@pagecast/service-kit';
import type { AccountDeps } from './deps';
import { requireManager } from './workspace-access';

/** Revokes an invitation not yet accepted (owner and admins); its link then finds nothing (INVITATION_NOT_FOUND). */
export async function revokeWorkspaceInvitation(
  deps: AccountDeps,
  input: { workspaceId: string; invitationId: string; callerId: string },
): Promise<{ ok: true }> {
  await requireManager(deps, input.workspaceId, input.callerId);
  const revoked = await deps.data.workspaces.revokeInvitation(input.workspaceId, input.invitationId, deps.clock.now());
  if (!revoked) throw new AppError('INVITATION_NOT_FOUND');
  return { ok: true };
}

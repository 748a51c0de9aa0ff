import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditInvitation } from './audit-invitations';
import type { AccountDeps } from './deps';
import { requireManager } from './workspace-access';

/** Revokes an invitation not yet accepted (owner and admins); its link then finds nothing (INVITATION_NOT_FOUND). */
export async function revokeWorkspaceInvitation(
  deps: AccountDeps,
  input: { workspaceId: string; invitationId: string; callerId: string },
  actor: AuditActor,
): Promise<{ ok: true }> {
  await requireManager(deps, input.workspaceId, input.callerId);
  const { workspaces } = deps.data;
  const before = await workspaces.invitation(input.workspaceId, input.invitationId);
  const now = deps.clock.now();
  if (!before || !(await workspaces.revokeInvitation(input.workspaceId, input.invitationId, now)))
    throw new AppError('INVITATION_NOT_FOUND');
  await auditInvitation(deps, actor, 'invitation.revoked', before, { ...before, revokedAt: now });
  return { ok: true };
}

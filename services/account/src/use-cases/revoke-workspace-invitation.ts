import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditInvitation } from './audit-invitations';
import type { AccountDeps } from './deps';
import { requireManager } from './workspace-access';

/**
 * Revokes an invitation not yet accepted (owner and admins); its link then finds nothing (INVITATION_NOT_FOUND).
 * Accepted already, even by an acceptance at the same moment: INVITATION_ALREADY_ACCEPTED, and the person stays a
 * member. The invitation's outcome, inserted under its id, decides which of the two came first (FerretDB's
 * conditional updates can let both "win", and the acceptance's membership insert does not see the revoke).
 */
export async function revokeWorkspaceInvitation(
  deps: AccountDeps,
  input: { workspaceId: string; invitationId: string; callerId: string },
  actor: AuditActor,
): Promise<{ ok: true }> {
  await requireManager(deps, input.workspaceId, input.callerId);
  const { workspaces } = deps.data;
  const before = await workspaces.invitation(input.workspaceId, input.invitationId);
  if (!before || before.revokedAt) throw new AppError('INVITATION_NOT_FOUND');
  if (before.acceptedAt) throw new AppError('INVITATION_ALREADY_ACCEPTED');
  const { won, outcome } = await workspaces.decideInvitation({
    _id: before._id,
    outcome: 'revoked',
    userId: input.callerId,
    at: deps.clock.now(),
  });
  if (outcome.outcome === 'accepted') {
    // Marked used here too once the member exists (the acceptance marks it itself after the membership; this covers
    // one that stopped in between). Before that the invitation is left to the acceptance: marked used without a
    // member, a retried acceptance would find it closed.
    if (await workspaces.member(before.workspaceId, outcome.userId)) await workspaces.recordOutcome(outcome);
    throw new AppError('INVITATION_ALREADY_ACCEPTED');
  }
  // revoked: by this call, or by one that has not marked the invitation yet (or stopped before): the same values
  await workspaces.recordOutcome(outcome);
  if (won) await auditInvitation(deps, actor, 'invitation.revoked', before, { ...before, revokedAt: outcome.at });
  return { ok: true };
}

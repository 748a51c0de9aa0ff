import { type AcceptInvitationResponse, subjects } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditMemberChange } from './audit-members';
import type { AccountDeps } from './deps';
import { openInvitation } from './get-invitation';
import { mustFindUser } from './shared';

/**
 * The signed-in person joins the workspace with the invited role. Their address must be the invited one and verified
 * (else INVITATION_EMAIL_MISMATCH): whoever holds the link cannot join as someone else. A member already:
 * ALREADY_A_MEMBER. The invitation's outcome, inserted under its id, decides between this and a revoke at the same
 * moment (the revoke's answer is then INVITATION_ALREADY_ACCEPTED, or this one's INVITATION_NOT_FOUND); the
 * membership's insert under its unique key then decides between two acceptances; then the gateways' copy, the
 * invitation marked used, and the event.
 */
export async function acceptInvitation(
  deps: AccountDeps,
  token: string,
  userId: string,
  actor: AuditActor,
): Promise<AcceptInvitationResponse> {
  const { workspaces } = deps.data;
  const inv = await openInvitation(deps, token);
  const user = await mustFindUser(deps, userId);
  if (!user.emailVerified || user.email !== inv.email) throw new AppError('INVITATION_EMAIL_MISMATCH');
  const workspace = await workspaces.find(inv.workspaceId);
  if (!workspace) throw new AppError('INVITATION_NOT_FOUND');
  // a member already (by another invitation): refused before deciding, so this invitation stays open
  if (await workspaces.member(inv.workspaceId, userId)) return alreadyAMember(deps, inv.workspaceId, userId);
  // Ours too when an earlier call of this person decided it and then stopped (a crash, or a second click in flight):
  // the membership's insert below lets exactly one of them go on.
  const { outcome } = await workspaces.decideInvitation({
    _id: inv._id,
    outcome: 'accepted',
    userId,
    at: deps.clock.now(),
  });
  if (outcome.outcome !== 'accepted' || outcome.userId !== userId) throw new AppError('INVITATION_NOT_FOUND');
  const now = outcome.at;
  const member = { workspaceId: inv.workspaceId, userId, role: inv.role, addedAt: now, addedBy: inv.invitedBy };
  // the row and the gateways' copy together, never between a removal's two steps (data/workspaces.ts)
  const added = await workspaces.withMemberLock(inv.workspaceId, userId, async () => {
    const added = await workspaces.addMember(member);
    if (added) await deps.memberships.put(inv.workspaceId, userId, inv.role);
    return added;
  });
  // after the membership, so that an invitation marked used always has its member (a retry finds it still open)
  await workspaces.recordOutcome(outcome);
  if (!added) return alreadyAMember(deps, inv.workspaceId, userId);
  await auditMemberChange(deps, actor, 'member.added', null, { _id: `${inv.workspaceId}:${userId}`, ...member });
  await deps.outbox.add(subjects.memberAdded, {
    workspaceId: inv.workspaceId,
    userId,
    role: inv.role,
    addedBy: inv.invitedBy,
    invitationId: inv._id,
    addedAt: now.toISOString(),
  });
  return {
    workspace: {
      id: workspace._id,
      name: workspace.name,
      ownerId: workspace._id,
      role: inv.role,
      approvalRequired: workspace.approvalRequired === true,
    },
  };
}

/** A member already; their copy in the gateways' bucket is written again in case an earlier write was lost. */
async function alreadyAMember(deps: AccountDeps, workspaceId: string, userId: string): Promise<never> {
  const { workspaces } = deps.data;
  await workspaces.withMemberLock(workspaceId, userId, async () => {
    const row = await workspaces.member(workspaceId, userId);
    if (row && row.role !== 'owner') await deps.memberships.put(workspaceId, userId, row.role);
  });
  throw new AppError('ALREADY_A_MEMBER');
}

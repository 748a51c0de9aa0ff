import { type AcceptInvitationResponse, subjects } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditMemberChange } from './audit-members';
import type { AccountDeps } from './deps';
import { openInvitation } from './get-invitation';
import { mustFindUser } from './shared';

/**
 * The signed-in person joins the workspace with the invited role. Their address must be the invited one and verified
 * (else INVITATION_EMAIL_MISMATCH): whoever holds the link cannot join as someone else. A member already:
 * ALREADY_A_MEMBER. The membership's insert under its unique key is the step that decides; then the gateways' copy,
 * the invitation marked used, and the event.
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
  const now = deps.clock.now();
  const member = { workspaceId: inv.workspaceId, userId, role: inv.role, addedAt: now, addedBy: inv.invitedBy };
  const added = await workspaces.addMember(member);
  if (!added) {
    // a member already; their copy in the gateways' bucket is written again in case an earlier write was lost
    const row = await workspaces.member(inv.workspaceId, userId);
    if (row && row.role !== 'owner') await deps.memberships.put(inv.workspaceId, userId, row.role);
    throw new AppError('ALREADY_A_MEMBER');
  }
  await deps.memberships.put(inv.workspaceId, userId, inv.role);
  await workspaces.markAccepted(inv._id, userId, now);
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

import type { InvitationOffer } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { hashToken, type InvitationRecord, invitationState } from '../domain';
import type { AccountDeps } from './deps';

/**
 * The open invitation a link's token names: unknown, revoked or already accepted → INVITATION_NOT_FOUND, past its
 * expiry → INVITATION_EXPIRED.
 */
export async function openInvitation(deps: AccountDeps, token: string): Promise<InvitationRecord> {
  const inv = await deps.data.workspaces.invitationByTokenHash(hashToken(token));
  if (!inv) throw new AppError('INVITATION_NOT_FOUND');
  const state = invitationState(inv, deps.clock.now());
  if (state === 'expired') throw new AppError('INVITATION_EXPIRED');
  if (state !== 'pending') throw new AppError('INVITATION_NOT_FOUND');
  return inv;
}

/** What the link offers (public: its holder got it by mail): the workspace, who invited, the role, the expiry. */
export async function getInvitation(deps: AccountDeps, token: string): Promise<InvitationOffer> {
  const inv = await openInvitation(deps, token);
  const workspace = await deps.data.workspaces.find(inv.workspaceId);
  if (!workspace) throw new AppError('INVITATION_NOT_FOUND');
  const inviter = await deps.data.users.findById(inv.invitedBy);
  return {
    workspaceId: workspace._id,
    workspaceName: workspace.name,
    inviter: { firstName: inviter?.firstName ?? null, lastName: inviter?.lastName ?? null },
    email: inv.email,
    role: inv.role,
    language: inv.language,
    expiresAt: inv.expiresAt.toISOString(),
  };
}

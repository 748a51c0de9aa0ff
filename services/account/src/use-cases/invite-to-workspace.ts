import { randomUUID } from 'node:crypto';
import { type CreateInvitationRequest, INVITATION_TTL_MS, type WorkspaceInvitation } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import { type InvitationRecord, invitationMail, type Locale, newToken, supportedLocale } from '../domain';
import { auditInvitation } from './audit-invitations';
import type { AccountDeps } from './deps';
import { mustFindUser } from './shared';
import { requireManager } from './workspace-access';

export function toWorkspaceInvitation(inv: InvitationRecord): WorkspaceInvitation {
  return {
    id: inv._id,
    workspaceId: inv.workspaceId,
    email: inv.email,
    role: inv.role,
    language: inv.language,
    invitedBy: inv.invitedBy,
    createdAt: inv.createdAt.toISOString(),
    expiresAt: inv.expiresAt.toISOString(),
  };
}

/**
 * Invites an address to the workspace (owner and admins), to any role but owner. The mail is in `language`, else the
 * invitee's account's language when the address has an account, else the inviter's (`inviterLocale`: their stored
 * one, else their browser's). Only the token's hash is stored; the link is `/invitations/<token>`, valid
 * INVITATION_VALID_DAYS. A member already (the owner included) is refused: ALREADY_A_MEMBER.
 */
export async function inviteToWorkspace(
  deps: AccountDeps,
  input: { workspaceId: string; callerId: string } & CreateInvitationRequest,
  inviterLocale: (stored: string | null) => Locale,
  actor: AuditActor,
): Promise<WorkspaceInvitation> {
  const { workspaces, users } = deps.data;
  await requireManager(deps, input.workspaceId, input.callerId);
  const workspace = await workspaces.find(input.workspaceId);
  if (!workspace) throw new AppError('NOT_A_MEMBER');
  const inviter = await mustFindUser(deps, input.callerId);
  const invitee = await users.findByEmail(input.email);
  if (invitee && (await workspaces.member(input.workspaceId, invitee._id))) throw new AppError('ALREADY_A_MEMBER');
  const language = input.language ?? supportedLocale(invitee?.locale) ?? inviterLocale(inviter.locale);
  const { token, hash } = newToken();
  const now = deps.clock.now();
  const record: InvitationRecord = {
    _id: randomUUID(),
    workspaceId: input.workspaceId,
    email: input.email,
    role: input.role,
    language,
    tokenHash: hash,
    invitedBy: input.callerId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    revokedAt: null,
    acceptedAt: null,
    acceptedBy: null,
  };
  await workspaces.createInvitation(record);
  // recorded once stored: the invitation exists (listed, revocable) even when its mail below fails
  await auditInvitation(deps, actor, 'invitation.created', null, record);
  // Sent before the answer: the inviter learns at once when the mail could not go (and may revoke and invite again).
  await deps.mailer.send(
    input.email,
    invitationMail(language, {
      publicUrl: deps.publicUrl,
      token,
      to: { email: input.email, firstName: invitee?.firstName ?? null, lastName: invitee?.lastName ?? null },
      inviter,
      workspaceName: workspace.name,
      role: input.role,
    }),
  );
  deps.logger.info({ workspaceId: input.workspaceId, invitationId: record._id, language }, 'invitation sent');
  return toWorkspaceInvitation(record);
}

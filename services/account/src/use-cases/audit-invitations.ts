import { type AuditActor, publishAudit } from '@pagecast/service-kit';
import type { InvitationRecord } from '../domain';
import type { AccountDeps } from './deps';

/**
 * An invitation as the audit log keeps it: to whom, which role, in which language, by whom, until when, and whether
 * it was revoked. Never its token or the token's hash (the log is read by every admin; the link would let one in).
 */
export const invitationSnapshot = (inv: InvitationRecord) => ({
  email: inv.email,
  role: inv.role,
  language: inv.language,
  invitedBy: inv.invitedBy,
  createdAt: inv.createdAt,
  expiresAt: inv.expiresAt,
  revokedAt: inv.revokedAt,
});

/** Records an invitation created (before null) or revoked (the revocation's time as after's revokedAt). */
export function auditInvitation(
  deps: Pick<AccountDeps, 'outbox' | 'clock'>,
  actor: AuditActor,
  action: 'invitation.created' | 'invitation.revoked',
  before: InvitationRecord | null,
  after: InvitationRecord,
) {
  return publishAudit(
    deps.outbox,
    'account',
    {
      workspaceId: after.workspaceId,
      actor,
      action,
      object: { type: 'invitation', id: after._id },
      before: before && invitationSnapshot(before),
      after: invitationSnapshot(after),
    },
    deps.clock.now(),
  );
}

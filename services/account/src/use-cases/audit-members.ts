import type { AuditAction } from '@pagecast/contracts';
import { type AuditActor, publishAudit } from '@pagecast/service-kit';
import type { MemberRecord } from '../domain';
import type { AccountDeps } from './deps';

/** A membership as the audit log keeps it: who, with which role, added by whom and when. */
const memberSnapshot = (m: MemberRecord) => ({
  userId: m.userId,
  role: m.role,
  addedBy: m.addedBy,
  addedAt: m.addedAt,
});

/**
 * Records a change of a workspace's membership in its audit log (object: the member's user id). A membership row
 * carries no version stamp, so the change's time tells two identical changes apart.
 */
export function auditMemberChange(
  deps: Pick<AccountDeps, 'outbox' | 'clock'>,
  actor: AuditActor,
  action: Extract<AuditAction, `member.${string}`>,
  before: MemberRecord | null,
  after: MemberRecord | null,
) {
  const row = (after ?? before) as MemberRecord;
  const at = deps.clock.now();
  return publishAudit(
    deps.outbox,
    'account',
    {
      workspaceId: row.workspaceId,
      actor,
      action,
      object: { type: 'member', id: row.userId },
      before: before && memberSnapshot(before),
      after: after && memberSnapshot(after),
      key: at.toISOString(),
    },
    at,
  );
}

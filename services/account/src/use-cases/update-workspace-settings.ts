import { subjects, type UpdateWorkspaceSettingsRequest, type WorkspaceSummary } from '@pagecast/contracts';
import { AppError, type AuditActor, publishAudit } from '@pagecast/service-kit';
import { mayChangeSettings, type WorkspaceRecord } from '../domain';
import type { AccountDeps } from './deps';
import { settingsValue, syncWorkspaceSettings } from './sync-workspace-settings';
import { requireMember } from './workspace-access';

/** The settings as the audit log keeps them. */
const settingsSnapshot = (w: WorkspaceRecord) => ({ approvalRequired: w.approvalRequired === true });

/**
 * Changes a workspace's settings (owner and admins, by their stored role there). The database is the truth; the
 * screens service reads the copy in the settings bucket, which must never say "off" while the database says "on" (an
 * editor's change would then go on air unapproved), so the copy moves first toward approval and last away from it:
 * - turning approval on: the copy is set on, then the database; a failure of the copy changes nothing (503), a
 *   failure of the database leaves the copy stricter than the truth until the sync or the keeper puts it back;
 * - turning it off: the database, then the copy; a failure of the copy answers 503 with the change made (and
 *   recorded): the copy stays on (stricter) until a retry of the call or the keeper writes it.
 * Either way the call ends with a sync from the database (compare-and-set: concurrent changes converge), so calling
 * again with the same value repairs the copy. The event and the audit entry go out only when the database changed.
 */
export async function updateWorkspaceSettings(
  deps: AccountDeps,
  input: { workspaceId: string; callerId: string } & UpdateWorkspaceSettingsRequest,
  actor: AuditActor,
): Promise<WorkspaceSummary> {
  const { workspaces } = deps.data;
  const caller = await requireMember(deps, input.workspaceId, input.callerId);
  if (!mayChangeSettings(caller.role)) throw new AppError('FORBIDDEN_ROLE');
  const before = await workspaces.find(input.workspaceId);
  if (!before) throw new AppError('NOT_A_MEMBER');
  const summary = (w: WorkspaceRecord): WorkspaceSummary => ({
    id: w._id,
    name: w.name,
    ownerId: w._id,
    role: caller.role,
    approvalRequired: w.approvalRequired === true,
  });
  const copy = async () => {
    try {
      await syncWorkspaceSettings(deps.data, deps.settings, input.workspaceId);
    } catch (err) {
      deps.settingsKeeper.schedule(input.workspaceId);
      deps.logger.warn({ err, workspaceId: input.workspaceId }, 'workspace settings not copied to the bucket yet');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  };

  if ((before.approvalRequired === true) === input.approvalRequired) {
    await copy(); // nothing to change here; a copy an earlier call could not write is written now
    return summary(before);
  }
  if (input.approvalRequired) {
    try {
      await deps.settings.put(input.workspaceId, settingsValue(true));
    } catch (err) {
      // it may have landed all the same: the keeper reads the database and puts it back
      deps.settingsKeeper.schedule(input.workspaceId);
      deps.logger.warn({ err, workspaceId: input.workspaceId }, 'approval not turned on: the bucket cannot be written');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }
  let after: WorkspaceRecord | null;
  try {
    after = await workspaces.setApprovalRequired(input.workspaceId, input.approvalRequired);
  } catch (err) {
    deps.settingsKeeper.schedule(input.workspaceId);
    throw err;
  }
  if (!after) throw new AppError('NOT_A_MEMBER');
  const now = deps.clock.now();
  await publishAudit(
    deps.outbox,
    'account',
    {
      workspaceId: input.workspaceId,
      actor,
      action: 'workspace.updated',
      object: { type: 'workspace', id: input.workspaceId },
      before: settingsSnapshot(before),
      after: settingsSnapshot(after),
      key: now.toISOString(),
    },
    now,
  );
  await deps.outbox.add(subjects.workspaceUpdated, {
    workspaceId: input.workspaceId,
    approvalRequired: after.approvalRequired === true,
    updatedBy: input.callerId,
    updatedAt: now.toISOString(),
  });
  await copy();
  return summary(after);
}

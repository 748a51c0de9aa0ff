import { subjects } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditMemberChange } from './audit-members';
import type { AccountDeps } from './deps';
import { requireManager, requireMember } from './workspace-access';

/**
 * Removes a member (owner and admins), or the caller leaves (any member, themself). The owner can neither be removed
 * nor leave (OWNER_IS_FIXED). The gateways' copy goes first: should the database's delete then fail, the person is
 * refused at the gateways while the row stays, and the call can be repeated (failing closed, never open).
 */
export async function removeWorkspaceMember(
  deps: AccountDeps,
  input: { workspaceId: string; userId: string; callerId: string },
  actor: AuditActor,
): Promise<{ ok: true }> {
  const { workspaces } = deps.data;
  const self = input.userId === input.callerId;
  if (self) await requireMember(deps, input.workspaceId, input.callerId);
  else await requireManager(deps, input.workspaceId, input.callerId);
  if (input.userId === input.workspaceId) throw new AppError('OWNER_IS_FIXED');
  // the gateways' copy and the row together, never between a role change's two steps (data/workspaces.ts)
  const removed = await workspaces.withMemberLock(input.workspaceId, input.userId, async () => {
    const row = await workspaces.member(input.workspaceId, input.userId);
    if (!row) throw new AppError('NOT_FOUND');
    await deps.memberships.remove(input.workspaceId, input.userId);
    return workspaces.removeMember(input.workspaceId, input.userId);
  });
  if (!removed) throw new AppError('NOT_FOUND'); // another call removed it first, and told
  await auditMemberChange(deps, actor, 'member.removed', removed, null);
  await deps.outbox.add(subjects.memberRemoved, {
    workspaceId: input.workspaceId,
    userId: input.userId,
    role: removed.role,
    removedBy: input.callerId,
    removedAt: deps.clock.now().toISOString(),
  });
  return { ok: true };
}

import { subjects, type UpdateWorkspaceMemberRequest, type WorkspaceMember } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import { auditMemberChange } from './audit-members';
import type { AccountDeps } from './deps';
import { toWorkspaceMember } from './list-workspace-members';
import { requireManager } from './workspace-access';

/**
 * Gives a member another role (owner and admins). The owner's row is fixed (OWNER_IS_FIXED), and no one becomes owner
 * (the request's schema has no such role). The gateways' copy follows, then the event.
 */
export async function updateWorkspaceMember(
  deps: AccountDeps,
  input: { workspaceId: string; userId: string; callerId: string } & UpdateWorkspaceMemberRequest,
  actor: AuditActor,
): Promise<WorkspaceMember> {
  const { workspaces, users } = deps.data;
  await requireManager(deps, input.workspaceId, input.callerId);
  if (input.userId === input.workspaceId) throw new AppError('OWNER_IS_FIXED');
  // the row and the gateways' copy together, never between a removal's two steps (data/workspaces.ts)
  const { before, after } = await workspaces.withMemberLock(input.workspaceId, input.userId, async () => {
    const before = await workspaces.member(input.workspaceId, input.userId);
    if (!before) throw new AppError('NOT_FOUND');
    if (before.role === input.role) return { before, after: null };
    const after = await workspaces.setRole(input.workspaceId, input.userId, input.role);
    if (!after) throw new AppError('NOT_FOUND'); // removed meanwhile
    await deps.memberships.put(input.workspaceId, input.userId, input.role);
    return { before, after };
  });
  if (!after) return toWorkspaceMember(before, (await users.findMany([before.userId])).get(before.userId));
  await auditMemberChange(deps, actor, 'member.updated', before, after);
  await deps.outbox.add(subjects.memberChanged, {
    workspaceId: input.workspaceId,
    userId: input.userId,
    role: input.role,
    previousRole: before.role,
    changedBy: input.callerId,
    changedAt: deps.clock.now().toISOString(),
  });
  return toWorkspaceMember(after, (await users.findMany([after.userId])).get(after.userId));
}

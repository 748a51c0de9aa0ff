import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { withoutDowngrade } from '../domain/membership';
import { putMembership, requireMembership, withMemberLock } from './membership-state';

export async function cancelDowngrade(ctx: ServiceContext, memberId: string, actor: AuditActor): Promise<{ ok: true }> {
  return withMemberLock(ctx, memberId, async () => {
    const cur = await requireMembership(ctx, memberId);
    if (!cur.pendingDowngradeTier) throw new AppError('NO_PENDING_DOWNGRADE');
    const audit = { action: 'plan.downgrade-cancelled' as const, actorUserId: actor.userId, address: actor.address };
    if (!(await putMembership(ctx, cur, withoutDowngrade(cur), 'downgrade cancelled', audit))) {
      throw new AppError('MEMBERSHIP_BUSY');
    }
    return { ok: true as const };
  });
}

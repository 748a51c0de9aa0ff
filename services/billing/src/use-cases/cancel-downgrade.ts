import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { withoutDowngrade } from '../domain/membership';
import { putMembership, requireMembership, withMemberLock } from './membership-state';

export async function cancelDowngrade(ctx: ServiceContext, memberId: string): Promise<{ ok: true }> {
  return withMemberLock(ctx, memberId, async () => {
    const cur = await requireMembership(ctx, memberId);
    if (!cur.pendingDowngradeTier) throw new AppError('NO_PENDING_DOWNGRADE');
    if (!(await putMembership(ctx, cur, withoutDowngrade(cur), 'downgrade cancelled'))) {
      throw new AppError('MEMBERSHIP_BUSY');
    }
    return { ok: true as const };
  });
}

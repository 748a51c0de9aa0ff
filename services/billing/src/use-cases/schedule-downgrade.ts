import type { ScheduleDowngradeResponse } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { downgradeRefusal, renewalDueAt, withDowngrade } from '../domain/membership';
import { tokyoDate } from '../domain/months';
import { putMembership, requireMembership, withMemberLock } from './membership-state';

/** Reserve a downgrade for the member's next renewal (the end of the paid month); applied by that renewal. */
export async function scheduleDowngrade(
  ctx: ServiceContext,
  memberId: string,
  target: 'free' | 'standard',
  actor: AuditActor,
): Promise<ScheduleDowngradeResponse> {
  return withMemberLock(ctx, memberId, async () => {
    const cur = await requireMembership(ctx, memberId);
    const refusal = downgradeRefusal(cur, target);
    if (refusal) throw new AppError(refusal);
    const next = withDowngrade(cur, target, ctx.clock.now());
    const audit = { action: 'plan.downgrade-scheduled' as const, actorUserId: actor.userId, address: actor.address };
    if (!(await putMembership(ctx, cur, next, `downgrade to ${target} reserved`, audit)))
      throw new AppError('MEMBERSHIP_BUSY');
    const month = next.downgradeEffectiveMonth as number;
    return {
      scheduledTier: target,
      effectiveDate: tokyoDate(renewalDueAt(next, month)),
      effectiveMonth: month,
    };
  });
}

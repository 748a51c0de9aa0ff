import type { UpgradeMembershipResponse } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { upgradeCost, upgradeRefusal, upgraded } from '../domain/membership';
import { toMembershipState } from './get-membership';
import { postEntry } from './post-entry';
import {
  currentMembership,
  putMembership,
  requireMembership,
  upgradeAudit,
  upgradeKey,
  withMemberLock,
} from './membership-state';

/**
 * Upgrade at once, paid from points (spec point 4), at the cost the member confirmed: another current cost is
 * refused (PRICE_CHANGED with the current one) before anything is charged. The charge is keyed by the plan version
 * it creates, so it can be paid only once for that version; the plan follows the charge (even after a crash, see
 * currentMembership). The paid month starts at the charge and the next renewal falls one calendar month later.
 */
export async function upgradeMembership(
  ctx: ServiceContext,
  memberId: string,
  target: 'standard' | 'creator',
  expectedCost: number,
  actor: AuditActor,
): Promise<UpgradeMembershipResponse> {
  return withMemberLock(ctx, memberId, async () => {
    const cur = await requireMembership(ctx, memberId);
    const refusal = upgradeRefusal(cur, target);
    if (refusal) throw new AppError(refusal);
    const cost = upgradeCost(target);
    if (cost !== expectedCost) throw new AppError('PRICE_CHANGED', { details: { price: cost } });
    const charge = await postEntry(ctx, {
      accountId: memberId,
      amount: -cost,
      type: 'spend',
      reason: { kind: 'upgrade', tier: target },
      key: upgradeKey(memberId, cur.seq + 1),
      // who asked, from where: the plan a crash leaves unwritten is finished with its audit entry (currentMembership)
      meta: { kind: 'upgrade', tier: target, by: actor.userId, address: actor.address },
    });
    if (charge.status === 'insufficient') throw new AppError('INSUFFICIENT_POINTS');
    await putMembership(
      ctx,
      cur,
      upgraded(cur, target, charge.entry.createdAt),
      `upgrade to ${target}`,
      upgradeAudit(charge.entry),
    );
    const after = await currentMembership(ctx, memberId);
    if (!after || after.tier !== target) throw new AppError('MEMBERSHIP_BUSY');
    return {
      pointsConsumed: cost,
      user: toMembershipState(after, charge.entry.balance, charge.entry.createdAt),
    };
  });
}

import type { UpgradeMembershipResponse } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { upgradeCost, upgradeRefusal, upgraded } from '../domain/membership';
import { toMembershipState } from './get-membership';
import { postEntry } from './post-entry';
import { currentMembership, putMembership, requireMembership, upgradeKey, withMemberLock } from './membership-state';

const labels = { standard: 'スタンダード', creator: 'クリエイター' } as const;

/**
 * Upgrade at once, paid from points (spec point 4). The charge is keyed by the plan version it creates, so it can
 * be paid only once for that version; the plan follows the charge (even after a crash, see currentMembership).
 */
export async function upgradeMembership(
  ctx: ServiceContext,
  memberId: string,
  target: 'standard' | 'creator',
): Promise<UpgradeMembershipResponse> {
  return withMemberLock(ctx, memberId, async () => {
    const cur = await requireMembership(ctx, memberId);
    const refusal = upgradeRefusal(cur, target);
    if (refusal) throw new AppError(refusal);
    const cost = upgradeCost(target);
    const charge = await postEntry(ctx, {
      accountId: memberId,
      amount: -cost,
      type: 'spend',
      description: `プランアップグレード（${labels[target]}）`,
      key: upgradeKey(memberId, cur.seq + 1),
      meta: { kind: 'upgrade', tier: target },
    });
    if (charge.status === 'insufficient') throw new AppError('INSUFFICIENT_POINTS');
    await putMembership(ctx, cur, upgraded(cur, target, charge.entry.createdAt), `upgrade to ${target}`);
    const after = await currentMembership(ctx, memberId);
    if (!after || after.tier !== target) throw new AppError('MEMBERSHIP_BUSY');
    return {
      message: 'アップグレードしました',
      pointsConsumed: cost,
      user: toMembershipState(after, charge.entry.balance),
    };
  });
}

import type { PointsSummary } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { monthlySums } from '../domain/ledger';
import { monthStart } from '../domain/months';

/**
 * The Points screen's four cards (balance and the sums since the 1st of this month in Asia/Tokyo) and the dashboard's
 * earnings from sales (sale proceeds only: the registration bonus is earned, not sold).
 */
export async function getPointsSummary(ctx: ServiceContext, memberId: string): Promise<PointsSummary> {
  const from = monthStart(ctx.clock.now());
  const [balance, rows] = await Promise.all([ctx.data.ledger.balance(memberId), ctx.data.ledger.since(memberId, from)]);
  const sums = monthlySums(rows);
  return {
    balance,
    earnedThisMonth: sums.earned,
    salesThisMonth: sums.sold,
    spentThisMonth: sums.spent,
    purchasedThisMonth: sums.purchased,
    monthStart: from.toISOString(),
  };
}

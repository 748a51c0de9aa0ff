import type { PointsHistory } from '@pagecast/contracts';
import type { ServiceContext } from '../context';

/** The member's ledger, newest first (spec point 7's rows). */
export async function getPointsHistory(ctx: ServiceContext, memberId: string): Promise<PointsHistory> {
  const rows = await ctx.data.ledger.history(memberId);
  return rows.map((r) => ({
    id: r._id,
    type: r.type,
    amount: r.amount,
    description: r.description,
    relatedFileId: r.relatedFileId,
    createdAt: r.createdAt.toISOString(),
  }));
}

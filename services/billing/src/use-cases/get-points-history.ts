import type { PointsHistory } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { describeJa, reasonFromStored } from '../domain/history';

/**
 * The member's ledger, newest first (spec point 7's rows): each row's reason as a code with its parameters, and the
 * spec's `description` in Japanese for the spec's client. An entry stored before reasons gets one read back from its
 * sentence; one whose sentence is unknown keeps that sentence, as stored, and no reason.
 */
export async function getPointsHistory(ctx: ServiceContext, memberId: string): Promise<PointsHistory> {
  const rows = await ctx.data.ledger.history(memberId);
  return rows.map((r) => {
    const reason = r.reason ?? reasonFromStored(r);
    return {
      id: r._id,
      type: r.type,
      amount: r.amount,
      reason,
      description: r.description ?? (reason ? describeJa(reason) : ''),
      relatedFileId: r.relatedFileId,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

import type { FileSummary } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { toFileSummary } from './present';

/** The member's own files, newest first, each with its sales (copies sold, points earned). */
export async function listFiles(
  ctx: ServiceContext,
  userId: string,
): Promise<Array<FileSummary & { copiesSold: number; pointsEarned: number }>> {
  const own = await ctx.data.files.listByOwner(userId);
  const sales = await ctx.data.files.salesOf(own.map((f) => f._id));
  return own.map((f) => ({ ...toFileSummary(f), ...(sales.get(f._id) ?? { copiesSold: 0, pointsEarned: 0 }) }));
}

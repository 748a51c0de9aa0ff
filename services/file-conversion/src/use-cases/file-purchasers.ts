import type { PurchasersResponse } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { ownFile } from './readable-file';

/** How many members hold a live licence for the member's file (the delete dialog warns about them). */
export async function filePurchasers(ctx: ServiceContext, userId: string, fileId: string): Promise<PurchasersResponse> {
  const file = await ownFile(ctx, userId, fileId);
  const count = await ctx.data.files.activePurchaserCount(file._id, ctx.clock.now());
  return { hasActivePurchasers: count > 0, activePurchaserCount: count };
}

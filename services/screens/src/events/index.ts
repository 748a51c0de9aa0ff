import { subjects } from '@pagecast/contracts';
import { consume } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { type ContentEvent, recordContent, recordLicence } from '../use-cases/record-content';
import { recordSale } from '../use-cases/sold-plays';

/**
 * Durable names of the read models' consumers (tests delete their own). The purchases' durable was `-sales` before
 * issue 35 kept licences too: a new name replays the whole stream (sales are inserted once, so again is harmless).
 */
export const consumerNames = (prefix: string) => ({ MARKETPLACE: `${prefix}-purchases`, FILES: `${prefix}-content` });

/**
 * The read models screens keeps, each rebuilt by a new durable from the whole stream (handlers idempotent):
 * - marketplace's purchases: which files were sold and by whom (`sold_files`, a seller's counts), and each buyer's
 *   licence periods (proof of play);
 * - file-conversion's files and playlists: owners, page counts, deletions and playlist contents over time.
 * What screens announces goes out through the outbox in the use cases.
 */
export async function startConsumers(ctx: ServiceContext): Promise<Array<{ stop(): Promise<void> }>> {
  const names = consumerNames(ctx.config.CONSUMER_PREFIX);
  const consumers: Array<{ stop(): Promise<void> }> = [];
  try {
    consumers.push(
      await consume(ctx.nats.js, {
        stream: 'MARKETPLACE',
        durable: names.MARKETPLACE,
        subjects: [subjects.purchaseCompleted],
        logger: ctx.logger,
        deliver: ctx.config.EVENTS_DELIVER,
        handler: async (e) => {
          const at = e.data.purchasedAt ? new Date(e.data.purchasedAt) : new Date(e.occurredAt);
          await recordSale(ctx, { fileId: e.data.fileId, sellerId: e.data.sellerId, at });
          await recordLicence(ctx, {
            purchaseId: e.data.purchaseId,
            buyerId: e.data.buyerId,
            fileId: e.data.fileId,
            from: at,
            to: new Date(e.data.expiresAt),
          });
        },
      }),
    );
    consumers.push(
      await consume(ctx.nats.js, {
        stream: 'FILES',
        durable: names.FILES,
        subjects: [
          subjects.fileUploaded,
          subjects.fileUpdated,
          subjects.fileDeleted,
          subjects.pageReady,
          subjects.playlistSaved,
          subjects.playlistDeleted,
        ],
        logger: ctx.logger,
        deliver: ctx.config.EVENTS_DELIVER,
        handler: async (e) => {
          await recordContent(ctx, e as ContentEvent);
        },
      }),
    );
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}

import { ALERT_REPORT_SUBJECT, alertStream, subjects } from '@pagecast/contracts';
import { consume, consumeRaw, ensureStreams, eventRoutes, followEvents } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { ingestAlertXml } from '../use-cases/ingest-alert';
import { hearContent, hearLicence, licenceOf, recordContent, recordLicence } from '../use-cases/record-content';
import { recordSale } from '../use-cases/sold-plays';

/**
 * Durable names of the read models' consumers (tests delete their own). The purchases' durable was `-sales` before
 * it kept licences too: a new name replays the whole stream (sales are inserted once, so again is harmless).
 */
export const consumerNames = (prefix: string) => ({
  MARKETPLACE: `${prefix}-purchases`,
  FILES: `${prefix}-content`,
  ALERTS: `${prefix}-alerts`,
});

const fileSubjects = [
  subjects.fileUploaded,
  subjects.fileUpdated,
  subjects.fileDeleted,
  subjects.pageReady,
  subjects.playlistSaved,
  subjects.playlistDeleted,
];

/**
 * The read models screens keeps, each rebuilt by a new durable from the whole stream (handlers idempotent):
 * - marketplace's purchases: which files were sold and by whom (`sold_files`, a seller's counts), and each buyer's
 *   licence periods (proof of play);
 * - file-conversion's files and playlists: owners, page counts, deletions and playlist contents over time.
 * Every instance also follows both streams' content events (plain subscriptions) into its memory of the last two.
 * What screens announces goes out through the outbox in the use cases.
 */
export async function startConsumers(ctx: ServiceContext): Promise<Array<{ stop(): Promise<void> }>> {
  const names = consumerNames(ctx.config.CONSUMER_PREFIX);
  const consumers: Array<{ stop(): Promise<void> }> = [];
  try {
    // every instance hears the content events as they are published and applies them to its memory at once (the
    // durable below, one per service, writes the documents that memory reads on a miss); a gap drops the memory
    const heard = eventRoutes()
      .on(fileSubjects, (_data, e) => hearContent(ctx, e))
      .on(subjects.purchaseCompleted, (_data, e) => hearLicence(ctx, e));
    const followed = followEvents(ctx.nats, heard, {
      logger: ctx.logger,
      onGap: () => ctx.data.content.dropMemory(),
    });
    consumers.push({ stop: async () => followed.stop() });
    consumers.push(
      await consume(ctx.nats.js, {
        stream: 'MARKETPLACE',
        durable: names.MARKETPLACE,
        subjects: [subjects.purchaseCompleted],
        logger: ctx.logger,
        deliver: ctx.config.EVENTS_DELIVER,
        handler: async (e) => {
          const licence = licenceOf(e);
          await recordSale(ctx, { fileId: licence.fileId, sellerId: licence.sellerId, at: licence.from });
          await recordLicence(ctx, licence);
        },
      }),
    );
    consumers.push(
      await consume(ctx.nats.js, {
        stream: 'FILES',
        durable: names.FILES,
        ...eventRoutes().on(fileSubjects, (_data, e) => recordContent(ctx, e)),
        logger: ctx.logger,
        deliver: ctx.config.EVENTS_DELIVER,
      }),
    );
    // disaster reports (raw XML): news, so a new durable starts at the stream's end (an old report's validity has
    // passed anyway); the stream is made here if no publisher made it yet
    await ensureStreams(ctx.nats.jsm, [alertStream]);
    const decoder = new TextDecoder();
    consumers.push(
      await consumeRaw(ctx.nats.js, {
        stream: alertStream.name,
        durable: names.ALERTS,
        subjects: [ALERT_REPORT_SUBJECT],
        logger: ctx.logger,
        deliver: 'new',
        handler: async (bytes) => {
          await ingestAlertXml(ctx, decoder.decode(bytes));
        },
      }),
    );
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}

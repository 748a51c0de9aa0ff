import { type EventEnvelope, subjects } from '@pagecast/contracts';
import type { ServiceContext } from '../context';

export type ContentEvent = EventEnvelope<
  | typeof subjects.fileUploaded
  | typeof subjects.fileUpdated
  | typeof subjects.fileDeleted
  | typeof subjects.pageReady
  | typeof subjects.playlistSaved
  | typeof subjects.playlistDeleted
>;
type DataOf<S extends ContentEvent['type']> = EventEnvelope<S>['data'];

/**
 * What play batches are judged by, kept from file-conversion's events (idempotent: a redelivery changes nothing):
 * a file's owner and page count (the total is known from its first page on, while it still converts; a count only
 * grows) and its deletion; each playlist's files from the time of each save (a deletion empties it from then on).
 */
export async function recordContent(ctx: ServiceContext, event: ContentEvent): Promise<void> {
  const { content } = ctx.data;
  switch (event.type) {
    case subjects.fileUploaded: {
      const d = event.data as DataOf<typeof subjects.fileUploaded>;
      return content.fileSeen(d.fileId, d.ownerId, 0);
    }
    case subjects.fileUpdated: {
      const d = event.data as DataOf<typeof subjects.fileUpdated>;
      return content.fileSeen(d.fileId, d.ownerId, d.pageCount);
    }
    case subjects.pageReady: {
      const d = event.data as DataOf<typeof subjects.pageReady>;
      return content.fileSeen(d.fileId, d.ownerId, Math.max(d.pageCount, d.pageNumber));
    }
    case subjects.fileDeleted: {
      const d = event.data as DataOf<typeof subjects.fileDeleted>;
      return content.fileDeleted(d.fileId, d.ownerId, new Date(d.deletedAt));
    }
    case subjects.playlistSaved: {
      const d = event.data as DataOf<typeof subjects.playlistSaved>;
      const entry = { eventId: event.id, from: new Date(d.updatedAt), fileIds: d.fileIds };
      return content.playlistVersion(d.playlistId, entry, ctx.now(), { ownerId: d.ownerId });
    }
    default: {
      const d = event.data as DataOf<typeof subjects.playlistDeleted>;
      const entry = { eventId: event.id, from: new Date(d.deletedAt), fileIds: [] };
      return content.playlistVersion(d.playlistId, entry, ctx.now(), { ownerId: d.ownerId, deleted: true });
    }
  }
}

/** A licence: the buyer may play the file from the purchase until the licence ends (once per purchase). */
export async function recordLicence(
  ctx: ServiceContext,
  licence: { purchaseId: string; buyerId: string; fileId: string; from: Date; to: Date },
): Promise<void> {
  await ctx.data.content.licence(licence.buyerId, licence.fileId, {
    purchaseId: licence.purchaseId,
    from: licence.from,
    to: licence.to,
  });
}

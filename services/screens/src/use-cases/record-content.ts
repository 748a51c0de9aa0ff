import { type EventEnvelope, subjects } from '@pagecast/contracts';
import type { EnvelopeOf } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileChange, PlaylistFacts, PlaylistVersionEntry } from '../data/content';

export type ContentEvent = EnvelopeOf<
  | typeof subjects.fileUploaded
  | typeof subjects.fileUpdated
  | typeof subjects.fileDeleted
  | typeof subjects.pageReady
  | typeof subjects.playlistSaved
  | typeof subjects.playlistDeleted
>;
export type PurchaseEvent = EventEnvelope<typeof subjects.purchaseCompleted>;

/** What one content event changes: a file's facts, or a playlist's version (its id is the event's). */
type ContentChange =
  | { kind: 'file'; fileId: string; change: FileChange }
  | { kind: 'playlist'; playlistId: string; entry: PlaylistVersionEntry; facts: PlaylistFacts };

/**
 * What play batches are judged by, kept from file-conversion's events (idempotent: a redelivery changes nothing):
 * a file's owner and page count (the total is known from its first page on, while it still converts; a count only
 * grows), how long each page shows (the file's display duration: what a play is measured against) and its deletion;
 * each playlist's files from the time of each save (a deletion empties it from then on).
 */
function changeOf(event: ContentEvent): ContentChange {
  switch (event.type) {
    case subjects.fileUploaded: {
      const d = event.data;
      return { kind: 'file', fileId: d.fileId, change: { ownerId: d.ownerId, pageCount: 0 } };
    }
    case subjects.fileUpdated: {
      const d = event.data;
      // the display shows each page for the file's duration, at least a second (mf-player slides.ts)
      const change = {
        ownerId: d.ownerId,
        pageCount: d.pageCount,
        pageSeconds: Math.max(1, d.displayDuration),
        // a playable video's length: what a play record's reached second is judged by
        ...(d.videoDurationMs !== undefined ? { videoSeconds: d.videoDurationMs / 1000 } : {}),
      };
      return { kind: 'file', fileId: d.fileId, change };
    }
    case subjects.pageReady: {
      const d = event.data;
      const pageCount = Math.max(d.pageCount, d.pageNumber);
      return { kind: 'file', fileId: d.fileId, change: { ownerId: d.ownerId, pageCount } };
    }
    case subjects.fileDeleted: {
      const d = event.data;
      const change = { ownerId: d.ownerId, pageCount: 0, deletedAt: new Date(d.deletedAt) };
      return { kind: 'file', fileId: d.fileId, change };
    }
    case subjects.playlistSaved: {
      const d = event.data;
      const entry = { eventId: event.id, from: new Date(d.updatedAt), fileIds: d.fileIds };
      return { kind: 'playlist', playlistId: d.playlistId, entry, facts: { ownerId: d.ownerId } };
    }
    default: {
      const d = event.data;
      const entry = { eventId: event.id, from: new Date(d.deletedAt), fileIds: [] };
      return { kind: 'playlist', playlistId: d.playlistId, entry, facts: { ownerId: d.ownerId, deleted: true } };
    }
  }
}

/** The durable consumer's handler: writes the read model's document (and this instance's memory). */
export async function recordContent(ctx: ServiceContext, event: ContentEvent): Promise<void> {
  const { content } = ctx.data;
  const c = changeOf(event);
  if (c.kind === 'playlist') return content.playlistVersion(c.playlistId, c.entry, ctx.clock.ms(), c.facts);
  if (c.change.deletedAt) return content.fileDeleted(c.fileId, c.change.ownerId, c.change.deletedAt);
  return content.fileSeen(c.fileId, c.change.ownerId, c.change.pageCount, c.change.pageSeconds, c.change.videoSeconds);
}

/** A content event heard by this instance (every instance follows the stream): applied to its memory only. */
export function hearContent(ctx: ServiceContext, event: ContentEvent): void {
  const c = changeOf(event);
  if (c.kind === 'playlist') ctx.data.content.heard.playlist(c.playlistId, c.entry, c.facts, ctx.clock.ms());
  else ctx.data.content.heard.file(c.fileId, c.change);
}

/** A licence: the buyer may play the file from the purchase until the licence ends (once per purchase). */
export function licenceOf(event: PurchaseEvent) {
  const at = event.data.purchasedAt ? new Date(event.data.purchasedAt) : new Date(event.occurredAt);
  return {
    purchaseId: event.data.purchaseId,
    buyerId: event.data.buyerId,
    fileId: event.data.fileId,
    sellerId: event.data.sellerId,
    from: at,
    to: new Date(event.data.expiresAt),
  };
}

/** The durable consumer's licence (once per purchase), written and applied to this instance's memory. */
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

/** A purchase heard by this instance: the buyer's licence in its memory only. */
export function hearLicence(ctx: ServiceContext, event: PurchaseEvent): void {
  const l = licenceOf(event);
  ctx.data.content.heard.licence(l.buyerId, l.fileId, { purchaseId: l.purchaseId, from: l.from, to: l.to });
}

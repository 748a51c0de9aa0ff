import type { EventData } from '@pagecast/contracts';
import type { Outbox } from '@pagecast/service-kit';
import type { FileDoc } from '../data';

const iso = (d: Date) => new Date(d).toISOString();

export function fileUpdatedData(f: FileDoc): EventData<'files.file.updated.v1'> {
  return {
    fileId: f._id,
    ownerId: f.userId,
    title: f.title,
    status: f.status,
    pageCount: f.pageCount,
    displayDuration: f.displayDuration,
    displayMode: f.displayMode,
    tags: f.tags,
    isPublished: f.isPublished,
    publishPrice: f.publishPrice,
    updatedAt: iso(f.updatedAt),
    // a playable video's length: the screens service judges a play record's reached second by it
    ...videoLength(f),
    ...(f.kind ? { kind: f.kind } : {}),
  };
}

/** A converted video's length, for the events that carry it; nothing for other kinds or a video not yet playable. */
function videoLength(f: FileDoc): { videoDurationMs?: number } {
  return f.kind === 'video' && f.video && f.media?.durationMs !== undefined
    ? { videoDurationMs: f.media.durationMs }
    : {};
}

/**
 * The listing of a file on sale (converted, published, priced; else undefined); `copyright` when the caller has it at hand (publishing), else the marketplace keeps
 * what it was told last.
 */
export function filePublishedData(
  f: FileDoc,
  copyright?: { authorName?: string | null; companyName?: string | null; copyrightText?: string | null },
): EventData<'files.file.published.v1'> | undefined {
  if (!f.isPublished || f.status !== 'private' || f.publishPrice == null) return undefined;
  return {
    fileId: f._id,
    ownerId: f.userId,
    title: f.title,
    publishPrice: f.publishPrice,
    pageCount: f.pageCount,
    displayDuration: f.displayDuration,
    tags: f.tags,
    updatedAt: iso(f.updatedAt),
    // the marketplace card shows a video's length and a photo as one image, not pages and seconds per page
    ...(f.kind ? { kind: f.kind } : {}),
    ...videoLength(f),
    ...(copyright?.authorName
      ? {
          copyright: {
            authorName: copyright.authorName,
            companyName: copyright.companyName || null,
            copyrightText: copyright.copyrightText || null,
          },
        }
      : {}),
  };
}

/** After any change: the snapshot, and the listing again when the file is on sale (its data may have changed). */
export async function announceFileChange(outbox: Outbox, f: FileDoc): Promise<void> {
  await outbox.add('files.file.updated.v1', fileUpdatedData(f));
  const listing = filePublishedData(f);
  if (listing) await outbox.add('files.file.published.v1', listing);
}

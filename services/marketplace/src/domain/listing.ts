import type { FileKind, ListingCopyright } from '@pagecast/contracts';

/** What file-conversion's events say about a file, reduced to what the listing needs. */
export interface ListingFacts {
  fileId: string;
  sellerId: string;
  title: string;
  publishPrice: number;
  pageCount: number;
  displayDuration: number;
  tags: string[];
  /** the file's updatedAt: the version of these facts */
  updatedAt: Date;
  /** the rights the seller stated, when the event carries them (a listing keeps the last it was told) */
  copyright?: ListingCopyright;
  /** the file's kind and, for a video, its length in whole seconds, when the event carries the kind */
  kind?: FileKind;
  videoSeconds?: number | null;
}

export type ListingChange =
  | { kind: 'listed'; facts: ListingFacts }
  | { kind: 'unlisted'; fileId: string; at: Date }
  | { kind: 'deleted'; fileId: string; at: Date };

/** A file is on sale only when converted (status private), published and priced; anything else unlists it. */
export function changeFromSnapshot(s: {
  fileId: string;
  ownerId: string;
  title: string;
  status: string;
  pageCount: number;
  displayDuration: number;
  tags: string[];
  isPublished: boolean;
  publishPrice: number | null;
  updatedAt: string;
  copyright?: ListingCopyright;
  kind?: FileKind;
  videoDurationMs?: number;
}): ListingChange {
  const at = new Date(s.updatedAt);
  if (!s.isPublished || s.status !== 'private' || s.publishPrice == null || s.pageCount < 1) {
    return { kind: 'unlisted', fileId: s.fileId, at };
  }
  return {
    kind: 'listed',
    facts: {
      fileId: s.fileId,
      sellerId: s.ownerId,
      title: s.title,
      publishPrice: s.publishPrice,
      pageCount: s.pageCount,
      displayDuration: s.displayDuration,
      tags: s.tags.map((t) => t.toLowerCase()),
      updatedAt: at,
      ...(s.copyright ? { copyright: s.copyright } : {}),
      ...(s.kind ? { kind: s.kind, videoSeconds: s.kind === 'video' ? videoSeconds(s.videoDurationMs) : null } : {}),
    },
  };
}

/** A video's length in whole seconds as the card shows it (m:ss), or null when the event did not carry it. */
export function videoSeconds(durationMs: number | undefined): number | null {
  return durationMs === undefined ? null : Math.round(durationMs / 1000);
}

/**
 * The kind a listing shows: the last kind an event told, else a document (a listing announced before kinds were
 * carried: every file on sale then was a document); a video's length only with a video.
 */
export function shownKind(stored: { kind?: FileKind | null; videoSeconds?: number | null }): {
  kind: FileKind;
  videoSeconds: number | null;
} {
  const kind = stored.kind ?? 'pdf';
  return { kind, videoSeconds: kind === 'video' ? (stored.videoSeconds ?? null) : null };
}

/**
 * Whether a change applies over what is stored: a deleted file never comes back, and an older version (a
 * redelivered or reordered event) never overwrites a newer one.
 */
export function changeApplies(stored: { deleted: boolean; version: Date } | null, change: ListingChange): boolean {
  if (!stored) return true;
  if (stored.deleted) return false;
  if (change.kind === 'deleted') return true;
  const at = change.kind === 'listed' ? change.facts.updatedAt : change.at;
  return at.getTime() >= stored.version.getTime();
}

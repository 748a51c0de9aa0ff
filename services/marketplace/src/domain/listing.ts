import type { ListingCopyright } from '@pagecast/contracts';

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
    },
  };
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

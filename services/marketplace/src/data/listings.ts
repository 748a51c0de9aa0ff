import type { ListingChange } from '../domain/listing';
import type { ListingIndex, ListingSearch } from './listing-index';
import { foldTitle } from '../domain/search';
import type { ListingDoc, Models } from './models';

export type { ListingSearch } from './listing-index';

/** Listings: the database is the truth; search reads the in-memory index (see listing-index.ts). */
export function createListings(models: Models, index: ListingIndex) {
  const { listings } = models;
  return {
    index,
    get: (fileId: string) => listings.findById(fileId).lean<ListingDoc>(),
    /** The listing if the file is on sale now. */
    getListed: (fileId: string) => listings.findOne({ _id: fileId, listed: true }).lean<ListingDoc>(),

    /** Stores a change; a stale or post-deletion change is ignored (see domain/listing). */
    async apply(change: ListingChange, applies: (stored: ListingDoc | null) => boolean): Promise<boolean> {
      const fileId = change.kind === 'listed' ? change.facts.fileId : change.fileId;
      const stored = await listings.findById(fileId).lean<ListingDoc>();
      if (!applies(stored)) return false;
      if (change.kind === 'listed') {
        const f = change.facts;
        const doc: ListingDoc = {
          _id: f.fileId,
          sellerId: f.sellerId,
          title: f.title,
          titleFolded: foldTitle(f.title),
          publishPrice: f.publishPrice,
          pageCount: f.pageCount,
          displayDuration: f.displayDuration,
          tags: f.tags,
          updatedAt: f.updatedAt,
          listed: true,
          deleted: false,
          version: f.updatedAt,
          // an event without them (a change of title, tags, duration) leaves the stated rights as they were
          copyright: f.copyright ?? stored?.copyright ?? null,
          // likewise the kind: an event made before it was carried leaves the kind (and a video's length) told last
          ...(f.kind
            ? { kind: f.kind, videoSeconds: f.videoSeconds ?? null }
            : { kind: stored?.kind ?? null, videoSeconds: stored?.videoSeconds ?? null }),
        };
        await listings.replaceOne({ _id: f.fileId }, doc, { upsert: true });
        await index.changed(f.fileId, doc);
        return true;
      }
      const deleted = change.kind === 'deleted';
      if (stored) {
        await listings.updateOne({ _id: fileId }, { $set: { listed: false, deleted, version: change.at } });
      } else if (deleted) {
        // A tombstone, so that a late "published" of a deleted file is not listed.
        await listings.create({
          _id: fileId,
          sellerId: '-',
          title: '-',
          titleFolded: '-',
          publishPrice: 0,
          pageCount: 0,
          displayDuration: 0,
          tags: [],
          updatedAt: change.at,
          listed: false,
          deleted: true,
          version: change.at,
        });
      }
      await index.changed(fileId, null);
      return true;
    },

    search: (s: ListingSearch) => index.search(s),
  };
}
export type Listings = ReturnType<typeof createListings>;

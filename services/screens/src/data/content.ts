// What screens knows of content, from other services' events (read models, one document per entity, read by _id):
// files (owner, page count, deletion) and playlists (their files over time) from file-conversion's FILES stream, and
// licences (buyer, file, from purchase to end) from marketplace's purchases. Play batches judge records by them.
import { type ByIdCollection, isDuplicateKeyError, setNewest } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { FileFacts, LicencePeriod, PlaylistVersion } from '../domain';
import { createCachedById } from './cached-by-id';

export interface FileFactsDoc {
  /** fileId */
  _id: string;
  ownerId: string;
  pageCount: number;
  deletedAt?: Date | null;
}
export interface PlaylistVersionEntry {
  /** the event that announced it: a redelivery adds nothing */
  eventId: string;
  from: Date;
  fileIds: string[];
}
export interface PlaylistVersionsDoc {
  /** playlistId */
  _id: string;
  versions: PlaylistVersionEntry[];
  /** from the events since issue 37 (absent on documents written before) */
  ownerId?: string;
  deleted?: boolean;
}
export interface LicencePeriodEntry {
  purchaseId: string;
  from: Date;
  to: Date;
}
export interface LicencesDoc {
  /** `${buyerId}:${fileId}` */
  _id: string;
  periods: LicencePeriodEntry[];
}

/** How long a process trusts what it read (a change announced to another instance shows within it). */
export const CONTENT_CACHE_MS = 60_000;
/** Versions a playlist keeps before the ones nobody can need any more are dropped. */
const VERSIONS_BEFORE_PRUNE = 100;

const licenceKey = (buyerId: string, fileId: string) => `${buyerId}:${fileId}`;

export function createContentRepository(conn: mongoose.Connection, opts: { maxAgeMs: number }) {
  const files = conn.collection<FileFactsDoc>('screen_files');
  const playlists = conn.collection<PlaylistVersionsDoc>('screen_playlists');
  const licences = conn.collection<LicencesDoc>('screen_licences');
  const fileReads = createCachedById<FileFactsDoc>(files as unknown as ByIdCollection, CONTENT_CACHE_MS);
  const playlistReads = createCachedById<PlaylistVersionsDoc>(playlists as unknown as ByIdCollection, CONTENT_CACHE_MS);
  const licenceReads = createCachedById<LicencesDoc>(licences as unknown as ByIdCollection, CONTENT_CACHE_MS);

  const changeFile = async (fileId: string, update: mongoose.mongo.UpdateFilter<FileFactsDoc>) => {
    fileReads.forget(fileId);
    await files.updateOne({ _id: fileId }, update, { upsert: true });
    fileReads.forget(fileId);
  };

  /** page counts this process wrote: a file's pages announce themselves one by one, the count once is enough */
  const written = new Map<string, number>();

  return {
    /** A file's owner and page count (a count only grows: events of one file may arrive out of order). */
    async fileSeen(fileId: string, ownerId: string, pageCount: number): Promise<void> {
      if ((written.get(fileId) ?? -1) >= pageCount) return;
      await changeFile(fileId, { $set: { ownerId }, $max: { pageCount } });
      setNewest(written, fileId, pageCount, 10_000);
    },
    async fileDeleted(fileId: string, ownerId: string, at: Date): Promise<void> {
      await changeFile(fileId, { $set: { ownerId, deletedAt: at }, $max: { pageCount: 0 } });
    },
    /**
     * A version of a playlist's files from `from` on, once per event. Pushed to the playlist's document (one writer:
     * this service's consumer; the push is one command). Versions superseded before any record may start are dropped
     * once there are many (best effort: a push from another instance in the same instant could be lost with them).
     */
    async playlistVersion(
      playlistId: string,
      entry: PlaylistVersionEntry,
      now: number,
      facts: { ownerId?: string; deleted?: boolean } = {},
    ): Promise<void> {
      const doc = await playlists.findOne({ _id: playlistId });
      if (doc?.versions.some((v) => v.eventId === entry.eventId)) return;
      playlistReads.forget(playlistId);
      // who owns it and whether it was deleted (a deletion stays deleted: playlist ids are never reused)
      const set: Partial<PlaylistVersionsDoc> = {};
      if (facts.ownerId) set.ownerId = facts.ownerId;
      if (facts.deleted) set.deleted = true;
      await upsertPush(() =>
        playlists.updateOne(
          { _id: playlistId },
          { $push: { versions: entry }, ...(Object.keys(set).length ? { $set: set } : {}) },
          { upsert: true },
        ),
      );
      const all = [...(doc?.versions ?? []), entry];
      if (all.length > VERSIONS_BEFORE_PRUNE) {
        const cutoff = now - opts.maxAgeMs;
        const sorted = all.sort((a, b) => a.from.getTime() - b.from.getTime());
        const firstNeeded = sorted.findLastIndex((v) => v.from.getTime() <= cutoff);
        if (firstNeeded > 0) {
          await playlists.updateOne({ _id: playlistId }, { $set: { versions: sorted.slice(firstNeeded) } });
        }
      }
      playlistReads.forget(playlistId);
    },
    /**
     * Playlists as a member's choice sees them (issue 37): owner (when known), deleted, and the files of the newest
     * version. Read afresh (a member just made it).
     */
    async playlistFacts(
      ids: string[],
      now: number,
    ): Promise<Map<string, { ownerId: string | null; deleted: boolean; fileIds: string[] }>> {
      const found = await playlistReads.many(ids, now, true);
      const out = new Map<string, { ownerId: string | null; deleted: boolean; fileIds: string[] }>();
      for (const [id, d] of found) {
        const newest = [...d.versions].sort((a, b) => new Date(b.from).getTime() - new Date(a.from).getTime())[0];
        out.set(id, { ownerId: d.ownerId ?? null, deleted: d.deleted === true, fileIds: newest?.fileIds ?? [] });
      }
      return out;
    },
    /** A licence of a buyer for a file, once per purchase. */
    async licence(buyerId: string, fileId: string, entry: LicencePeriodEntry): Promise<void> {
      const _id = licenceKey(buyerId, fileId);
      const doc = await licences.findOne({ _id });
      if (doc?.periods.some((p) => p.purchaseId === entry.purchaseId)) return;
      licenceReads.forget(_id);
      await upsertPush(() => licences.updateOne({ _id }, { $push: { periods: entry } }, { upsert: true }));
      licenceReads.forget(_id);
    },

    async files(ids: string[], now: number, fresh = false): Promise<Map<string, FileFacts>> {
      const found = await fileReads.many(ids, now, fresh);
      return new Map(
        [...found].map(([id, d]) => [
          id,
          { ownerId: d.ownerId, pageCount: d.pageCount ?? 0, deletedAt: d.deletedAt ? d.deletedAt.getTime() : null },
        ]),
      );
    },
    /** Each playlist's versions, oldest first (a redelivered event counted once). */
    async playlists(ids: string[], now: number, fresh = false): Promise<Map<string, PlaylistVersion[]>> {
      const found = await playlistReads.many(ids, now, fresh);
      const out = new Map<string, PlaylistVersion[]>();
      for (const [id, d] of found) {
        const seen = new Set<string>();
        const versions = d.versions
          .filter((v) => !seen.has(v.eventId) && seen.add(v.eventId))
          .map((v) => ({ from: new Date(v.from).getTime(), fileIds: v.fileIds }))
          .sort((a, b) => a.from - b.from);
        out.set(id, versions);
      }
      return out;
    },
    /** The buyer's licence periods for these files. */
    async licences(
      buyerId: string,
      fileIds: string[],
      now: number,
      fresh = false,
    ): Promise<Map<string, LicencePeriod[]>> {
      const found = await licenceReads.many(
        fileIds.map((f) => licenceKey(buyerId, f)),
        now,
        fresh,
      );
      const out = new Map<string, LicencePeriod[]>();
      for (const fileId of fileIds) {
        const d = found.get(licenceKey(buyerId, fileId));
        if (d)
          out.set(
            fileId,
            d.periods.map((p) => ({ from: new Date(p.from).getTime(), to: new Date(p.to).getTime() })),
          );
      }
      return out;
    },
  };
}
export type ContentRepository = ReturnType<typeof createContentRepository>;

/** An upserting push: two first writers of one document at once race on its _id; the loser pushes again. */
async function upsertPush(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    await run();
  }
}

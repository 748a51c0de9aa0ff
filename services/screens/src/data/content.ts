// What screens knows of content, from other services' events (read models, one document per entity, read by _id):
// files (owner, page count, deletion) and playlists (their files over time) from file-conversion's FILES stream, and
// licences (buyer, file, from purchase to end) from marketplace's purchases. Play batches judge records by them.
// One durable consumer writes the documents; every instance holds what it read of them in memory with every event it
// heard applied on top (the same reducers, below), so a change is judged by every instance at once.
import { DUPLICATE_WINDOW_MS } from '@pagecast/contracts';
import { type ByIdCollection, createMemoryView, isDuplicateKeyError, LRUCache } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { FileFacts, LicencePeriod, PlaylistVersion } from '../domain';

export interface FileFactsDoc {
  /** fileId */
  _id: string;
  ownerId: string;
  pageCount: number;
  deletedAt?: Date | null;
  /** how long the display shows each page (its display duration, at least 1 s); absent on older documents */
  pageSeconds?: number;
  /** a playable video's length (seconds): a play record's reached second is judged by it; absent otherwise */
  videoSeconds?: number;
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
  /** from the events that carry it (absent on documents written before) */
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

/**
 * How long an entry is trusted before it is read again: a backstop, not how a change travels (every instance applies
 * the FILES and MARKETPLACE events it hears at once). Ten minutes bounds what a lost message could leave
 * wrong (a refusal is always judged again on a fresh read, so only a wrong acceptance could last that long: a play of
 * a file deleted or taken off a playlist in a message this instance missed without a reconnect); re-reading every
 * entry once per ten minutes costs 10,000 screens' few thousand distinct files, playlists and licences a handful of
 * batched `$in` reads a second at most.
 */
export const CONTENT_CACHE_MS = 600_000;
/**
 * Entries each read model keeps (the least recently used first): 10,000 screens' files, playlists and licences fit many
 * times over. Measured (V8 heap after a collection, 20,000 entries of each read through the view, ids included): about
 * 0.2 KiB per file, 1.2 KiB per playlist of one version of 10 files, 0.6 KiB per licence of one period; all three full
 * would be some 100 MB, a fleet of 10,000 screens with a few thousand distinct entries a few MB.
 */
export const CONTENT_ENTRIES_MAX = 50_000;
/** At most this many ids whose recent events are kept (far above what the window sees: events are rare). */
const HEARD_MAX = 100_000;
/** Versions a playlist keeps before the ones nobody can need any more are dropped. */
const VERSIONS_BEFORE_PRUNE = 100;

const licenceKey = (buyerId: string, fileId: string) => `${buyerId}:${fileId}`;

// The reducers: what one event does to a read model's document, shared by the durable writer (the database) and every
// instance's memory (the events it hears). Pure and idempotent: applying one again, or on top of a document that
// already holds it, changes nothing.

/** What an event says of a file: its owner and a page count (a count only grows), or its deletion. */
export interface FileChange {
  ownerId: string;
  pageCount: number;
  deletedAt?: Date;
  /** a page's duration, from a file's snapshot (the newest wins) */
  pageSeconds?: number;
  /** a video's length in seconds, from a file's snapshot (the newest wins) */
  videoSeconds?: number;
}
/** A file's facts after a change (the database's `fileUpdate` is the same rule as one update). */
export function withFileChange(fileId: string, doc: FileFactsDoc | null, change: FileChange): FileFactsDoc {
  const deletedAt = change.deletedAt ?? doc?.deletedAt ?? null;
  const pageSeconds = change.pageSeconds ?? doc?.pageSeconds;
  const videoSeconds = change.videoSeconds ?? doc?.videoSeconds;
  return {
    _id: fileId,
    ownerId: change.ownerId,
    pageCount: Math.max(doc?.pageCount ?? 0, change.pageCount),
    ...(deletedAt ? { deletedAt } : {}),
    ...(pageSeconds !== undefined ? { pageSeconds } : {}),
    ...(videoSeconds !== undefined ? { videoSeconds } : {}),
  };
}
function fileUpdate(change: FileChange): mongoose.mongo.UpdateFilter<FileFactsDoc> {
  return {
    $set: {
      ownerId: change.ownerId,
      ...(change.deletedAt ? { deletedAt: change.deletedAt } : {}),
      ...(change.pageSeconds !== undefined ? { pageSeconds: change.pageSeconds } : {}),
      ...(change.videoSeconds !== undefined ? { videoSeconds: change.videoSeconds } : {}),
    },
    $max: { pageCount: change.pageCount },
  };
}

/** Who owns a playlist and whether it was deleted (a deletion stays deleted: playlist ids are never reused). */
export interface PlaylistFacts {
  ownerId?: string;
  deleted?: boolean;
}
/**
 * A playlist after a version (once per event id: a redelivery adds nothing). Versions superseded before any record may
 * start (`cutoff`) are dropped once there are more than VERSIONS_BEFORE_PRUNE. Returns `doc` itself when it holds the
 * version already.
 */
export function withPlaylistVersion(
  playlistId: string,
  doc: PlaylistVersionsDoc | null,
  entry: PlaylistVersionEntry,
  facts: PlaylistFacts,
  cutoff: number,
): PlaylistVersionsDoc {
  if (doc?.versions.some((v) => v.eventId === entry.eventId)) return doc;
  let versions = [...(doc?.versions ?? []), entry];
  if (versions.length > VERSIONS_BEFORE_PRUNE) {
    const sorted = versions.sort((a, b) => new Date(a.from).getTime() - new Date(b.from).getTime());
    const firstNeeded = sorted.findLastIndex((v) => new Date(v.from).getTime() <= cutoff);
    versions = firstNeeded > 0 ? sorted.slice(firstNeeded) : sorted;
  }
  const ownerId = facts.ownerId ?? doc?.ownerId;
  const deleted = facts.deleted === true || doc?.deleted === true;
  return { _id: playlistId, versions, ...(ownerId ? { ownerId } : {}), ...(deleted ? { deleted } : {}) };
}

/** A buyer's licences of a file after a purchase (once per purchase id). Returns `doc` itself when it holds it. */
export function withLicencePeriod(id: string, doc: LicencesDoc | null, entry: LicencePeriodEntry): LicencesDoc {
  if (doc?.periods.some((p) => p.purchaseId === entry.purchaseId)) return doc;
  return { _id: id, periods: [...(doc?.periods ?? []), entry] };
}

export function createContentRepository(conn: mongoose.Connection, opts: { maxAgeMs: number }) {
  const files = conn.collection<FileFactsDoc>('screen_files');
  const playlists = conn.collection<PlaylistVersionsDoc>('screen_playlists');
  const licences = conn.collection<LicencesDoc>('screen_licences');
  // One read model each, in memory on every instance (docs/read-models.md, rule 1): what was read by `_id` with
  // every change heard since applied on top, again on any later read for DUPLICATE_WINDOW_MS (the durable writer's
  // lag); a backstop of CONTENT_CACHE_MS, checked before the answer, in the service's clock (tests move it) as of the
  // last read.
  let clock = Date.now();
  const memoryOf = <D>(collection: unknown) =>
    createMemoryView<D>({
      source: collection as ByIdCollection,
      max: CONTENT_ENTRIES_MAX,
      backstopMs: CONTENT_CACHE_MS,
      now: () => clock,
      replay: { windowMs: DUPLICATE_WINDOW_MS, maxIds: HEARD_MAX },
    });
  const fileReads = memoryOf<FileFactsDoc>(files);
  const playlistReads = memoryOf<PlaylistVersionsDoc>(playlists);
  const licenceReads = memoryOf<LicencesDoc>(licences);
  const cutoffOf = (now: number) => now - opts.maxAgeMs;

  // what every instance hears (events/index.ts follows the streams) and what this one writes: applied to memory
  const hearFile = (fileId: string, change: FileChange) =>
    fileReads.hear(fileId, (doc) => withFileChange(fileId, doc, change));
  const hearPlaylist = (playlistId: string, entry: PlaylistVersionEntry, facts: PlaylistFacts, now: number) =>
    playlistReads.hear(playlistId, (doc) => withPlaylistVersion(playlistId, doc, entry, facts, cutoffOf(now)));
  const hearLicence = (buyerId: string, fileId: string, entry: LicencePeriodEntry) => {
    const _id = licenceKey(buyerId, fileId);
    licenceReads.hear(_id, (doc) => withLicencePeriod(_id, doc, entry));
  };

  /** page counts this process wrote: a file's pages announce themselves one by one, the count once is enough */
  const written = new LRUCache<string, number>({ max: 10_000 });
  /** page durations this process wrote (a change of duration alone is written too) */
  const writtenSeconds = new LRUCache<string, number>({ max: 10_000 });
  /** the video lengths this instance wrote, as writtenSeconds */
  const writtenVideo = new LRUCache<string, number>({ max: 10_000 });

  return {
    /** An event heard on a followed stream (every instance): memory only; the durable consumer writes the database. */
    heard: { file: hearFile, playlist: hearPlaylist, licence: hearLicence },
    /** A gap in what this instance heard: every entry is read again. */
    dropMemory(): void {
      fileReads.clear();
      playlistReads.clear();
      licenceReads.clear();
    },
    /** Database reads the three views made (figures and tests). */
    get reads(): number {
      return fileReads.reads + playlistReads.reads + licenceReads.reads;
    },

    /**
     * A file's owner and page count (a count only grows: events of one file may arrive out of order), and its pages'
     * duration when the event says it (a file's snapshot), and a video's length.
     */
    async fileSeen(
      fileId: string,
      ownerId: string,
      pageCount: number,
      pageSeconds?: number,
      videoSeconds?: number,
    ): Promise<void> {
      const sameSeconds = pageSeconds === undefined || writtenSeconds.get(fileId) === pageSeconds;
      const sameVideo = videoSeconds === undefined || writtenVideo.get(fileId) === videoSeconds;
      if ((written.get(fileId) ?? -1) >= pageCount && sameSeconds && sameVideo) return;
      const change = {
        ownerId,
        pageCount,
        ...(pageSeconds !== undefined ? { pageSeconds } : {}),
        ...(videoSeconds !== undefined ? { videoSeconds } : {}),
      };
      await files.updateOne({ _id: fileId }, fileUpdate(change), { upsert: true });
      hearFile(fileId, change);
      written.set(fileId, Math.max(written.get(fileId) ?? 0, pageCount));
      if (pageSeconds !== undefined) writtenSeconds.set(fileId, pageSeconds);
      if (videoSeconds !== undefined) writtenVideo.set(fileId, videoSeconds);
    },
    async fileDeleted(fileId: string, ownerId: string, at: Date): Promise<void> {
      const change = { ownerId, pageCount: 0, deletedAt: at };
      await files.updateOne({ _id: fileId }, fileUpdate(change), { upsert: true });
      hearFile(fileId, change);
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
      facts: PlaylistFacts = {},
    ): Promise<void> {
      const doc = await playlists.findOne({ _id: playlistId });
      const next = withPlaylistVersion(playlistId, doc, entry, facts, cutoffOf(now));
      if (next === doc) return;
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
      if (next.versions.length < (doc?.versions.length ?? 0) + 1) {
        await playlists.updateOne({ _id: playlistId }, { $set: { versions: next.versions } });
      }
      hearPlaylist(playlistId, entry, facts, now);
    },
    /**
     * Playlists as a member's choice sees them: owner (when known), deleted, and the files of the newest
     * version. Read afresh by default (a member just made it); `fresh = false` reads the memory (what was heard since).
     */
    async playlistFacts(
      ids: string[],
      now: number,
      fresh = true,
    ): Promise<Map<string, { ownerId: string | null; deleted: boolean; fileIds: string[] }>> {
      clock = now;
      const found = await playlistReads.many(ids, fresh);
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
      if (withLicencePeriod(_id, doc, entry) === doc) return;
      await upsertPush(() => licences.updateOne({ _id }, { $push: { periods: entry } }, { upsert: true }));
      hearLicence(buyerId, fileId, entry);
    },

    async files(ids: string[], now: number, fresh = false): Promise<Map<string, FileFacts>> {
      clock = now;
      const found = await fileReads.many(ids, fresh);
      return new Map(
        [...found].map(([id, d]) => [
          id,
          {
            ownerId: d.ownerId,
            pageCount: d.pageCount ?? 0,
            deletedAt: d.deletedAt ? d.deletedAt.getTime() : null,
            ...(d.pageSeconds !== undefined ? { pageSeconds: d.pageSeconds } : {}),
            ...(d.videoSeconds !== undefined ? { videoSeconds: d.videoSeconds } : {}),
          },
        ]),
      );
    },
    /** Each playlist's versions, oldest first (a redelivered event counted once). */
    async playlists(ids: string[], now: number, fresh = false): Promise<Map<string, PlaylistVersion[]>> {
      clock = now;
      const found = await playlistReads.many(ids, fresh);
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
      clock = now;
      const found = await licenceReads.many(
        fileIds.map((f) => licenceKey(buyerId, f)),
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

// Playlists, with their items EMBEDDED in the playlist document (collection `playlists`; the spec's separate
// playlist_items table is not used): a save is one single-document write, so a player reading during a save sees
// the old list or the new one, never half (FerretDB has no transactions).
//
// A file's delete calls `removeFileFromPlaylists` (through the files repository): it takes the file out of every
// playlist and announces each changed playlist (files.playlist.saved.v1).
//
// FerretDB (SQLite) runs an update as read-then-write without a transaction, so two writers of one playlist could
// lose one another's change (and reuse a version number). Writers therefore take a per-playlist lock first (the kit's
// write locks, in `playlist_locks`).
import { randomUUID } from 'node:crypto';
import { type EventData, eventDataSchemas, subjects } from '@pagecast/contracts';
import {
  type Clock,
  createBatchLoader,
  createWriteLocks,
  onceUntilFailure,
  readByIds,
  type Outbox,
  type OutboxEntry,
  type WriteLocks,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { inPlayOrder, type PlaylistItemRecord, type PlaylistRecord } from '../domain/playlists';

export type { PlaylistItemRecord, PlaylistRecord } from '../domain/playlists';

function collections(conn: mongoose.Connection) {
  return { playlists: conn.collection<PlaylistRecord>('playlists') };
}

/** One set of playlist locks per connection, so a process's writers of a playlist wait in one line. */
const locksOf = new WeakMap<mongoose.Connection, WriteLocks>();
function withLock<T>(conn: mongoose.Connection, playlistId: string, fn: () => Promise<T>): Promise<T> {
  let locks = locksOf.get(conn);
  if (!locks) {
    locks = createWriteLocks(conn, 'playlist_locks');
    locksOf.set(conn, locks);
  }
  return locks.withLock(playlistId, fn);
}

/** The data of files.playlist.saved.v1 for a playlist as stored. */
export function playlistSavedData(p: PlaylistRecord): EventData<'files.playlist.saved.v1'> {
  return {
    playlistId: p._id,
    ownerId: p.userId,
    name: p.name,
    fileIds: inPlayOrder(p.items).map((i) => i.fileId),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
}

/**
 * Announces a saved playlist: through the outbox when one is given, else as an unsent outbox entry that the
 * outbox relay publishes within a few seconds (for callers that hold only the connection).
 */
async function announceSaved(conn: mongoose.Connection, p: PlaylistRecord, outbox?: Outbox): Promise<void> {
  const data = playlistSavedData(p);
  if (outbox) {
    await outbox.add(subjects.playlistSaved, data);
    return;
  }
  await conn.collection<OutboxEntry>('outbox').insertOne({
    _id: randomUUID(),
    subject: subjects.playlistSaved,
    data: eventDataSchemas[subjects.playlistSaved].parse(data),
    occurredAt: new Date(), // real time, as the kit's outbox: the relay sends entries by their real age
    sentAt: null,
  });
}

/**
 * Takes a deleted file out of every playlist (each under its lock, one single-document write) and announces each
 * changed playlist. Returns the ids of the playlists that held it.
 */
export async function removeFileFromPlaylists(
  conn: mongoose.Connection,
  clock: Clock,
  fileId: string,
  outbox?: Outbox,
): Promise<string[]> {
  const { playlists } = collections(conn);
  const holding = await playlists.find({ 'items.fileId': fileId }, { projection: { _id: 1 } }).toArray();
  const changed: string[] = [];
  for (const { _id } of holding) {
    const updated = await withLock(conn, _id, async () => {
      const p = await playlists.findOne({ _id });
      if (!p?.items.some((i) => i.fileId === fileId)) return null;
      return playlists.findOneAndUpdate(
        { _id },
        { $set: { items: p.items.filter((i) => i.fileId !== fileId), updatedAt: clock.now() }, $inc: { version: 1 } },
        { returnDocument: 'after' },
      );
    });
    if (updated) {
      changed.push(_id);
      await announceSaved(conn, updated, outbox);
    }
  }
  return changed;
}

/** Playlists of this service; every write of items goes through `change` (locked, one document, stamped by `clock`). */
export function createPlaylistsRepo(conn: mongoose.Connection, clock: Clock) {
  const { playlists } = collections(conn);
  const byId = createBatchLoader<string, PlaylistRecord>(readByIds(playlists));

  return {
    /** Idempotent; the owner's list and the file → playlists look-up of a delete. */
    ensureIndexes: onceUntilFailure(() =>
      Promise.all([playlists.createIndex({ userId: 1, createdAt: -1 }), playlists.createIndex({ 'items.fileId': 1 })]),
    ),
    listByOwner: (userId: string) => playlists.find({ userId }).sort({ createdAt: -1, _id: 1 }).toArray(),
    findById: (id: string) => playlists.findOne({ _id: id }),
    /** findOwned for bursts (every screen of a playlist checking an image): read together with the others asked. */
    async findOwnedBatched(id: string, userId: string) {
      const p = await byId.load(id);
      return p && p.userId === userId ? p : null;
    },
    async create(p: PlaylistRecord): Promise<void> {
      await playlists.insertOne(p);
    },
    /**
     * Reads the owner's playlist under its lock, lets `edit` compute the new items from that snapshot (it may throw
     * an AppError; undefined = nothing to change) and writes them in one update with version + 1.
     * Null when the playlist is not the caller's (or gone).
     */
    change(
      id: string,
      userId: string,
      edit: (p: PlaylistRecord) => Promise<PlaylistItemRecord[] | undefined> | PlaylistItemRecord[] | undefined,
    ): Promise<{ playlist: PlaylistRecord; changed: boolean } | null> {
      return withLock(conn, id, async () => {
        const p = await playlists.findOne({ _id: id, userId });
        if (!p) return null;
        const items = await edit(p);
        if (!items) return { playlist: p, changed: false };
        const updated = await playlists.findOneAndUpdate(
          { _id: id, userId },
          { $set: { items, updatedAt: clock.now() }, $inc: { version: 1 } },
          { returnDocument: 'after' },
        );
        return updated ? { playlist: updated, changed: true } : null;
      });
    },
    /** The caller's playlist as it was, now gone (items with it); null when it was not there. */
    async deleteOwned(id: string, userId: string): Promise<PlaylistRecord | null> {
      return withLock(conn, id, async () => playlists.findOneAndDelete({ _id: id, userId }));
    },
    announceSaved: (p: PlaylistRecord, outbox?: Outbox) => announceSaved(conn, p, outbox),
  };
}
export type PlaylistsRepo = ReturnType<typeof createPlaylistsRepo>;

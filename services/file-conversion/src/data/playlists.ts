// Playlists, with their items EMBEDDED in the playlist document (collection `playlists`; the spec's separate
// playlist_items table is not used): a save is one single-document write, so a player reading during a save sees
// the old list or the new one, never half (FerretDB has no transactions).
//
// A file's delete calls `removeFileFromPlaylists` (through the files repository): it takes the file out of every
// playlist and announces each changed playlist (files.playlist.saved.v1).
//
// FerretDB (SQLite) runs an update as read-then-write without a transaction, so two writers of one playlist could
// lose one another's change (and reuse a version number). Writers therefore take a per-playlist lock first: an
// insert under a unique _id in `playlist_locks`, the one write FerretDB makes atomic.
import { randomUUID } from 'node:crypto';
import { type EventData, eventDataSchemas, subjects } from '@pagecast/contracts';
import {
  AppError,
  type Clock,
  createBatchLoader,
  isDuplicateKeyError,
  onceUntilFailure,
  readByIds,
  type Outbox,
  type OutboxEntry,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { inPlayOrder, type PlaylistItemRecord, type PlaylistRecord } from '../domain/playlists';

export type { PlaylistItemRecord, PlaylistRecord } from '../domain/playlists';

interface LockRecord {
  _id: string;
  token: string;
  at: Date;
}

/** A lock older than this was left by a crashed writer and may be taken over. */
const LOCK_STALE_MS = 10_000;
/** How long a writer waits for a busy playlist before answering 503. */
const LOCK_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collections(conn: mongoose.Connection) {
  return {
    playlists: conn.collection<PlaylistRecord>('playlists'),
    locks: conn.collection<LockRecord>('playlist_locks'),
  };
}

/** Runs `fn` while holding the playlist's write lock. */
async function withLock<T>(conn: mongoose.Connection, playlistId: string, fn: () => Promise<T>): Promise<T> {
  const { locks } = collections(conn);
  const token = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      // real time, as the staleness check below: a lock's age measures a writer's real wait, not business time
      await locks.insertOne({ _id: playlistId, token, at: new Date() });
      break;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const held = await locks.findOne({ _id: playlistId });
      if (held && Date.now() - new Date(held.at).getTime() > LOCK_STALE_MS) {
        await locks.deleteOne({ _id: playlistId, token: held.token });
        continue;
      }
      if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', { details: { playlistId } });
      await sleep(5 + Math.random() * 20);
    }
  }
  try {
    return await fn();
  } finally {
    await locks.deleteOne({ _id: playlistId, token }).catch(() => undefined);
  }
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

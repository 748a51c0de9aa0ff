import { createBatchLoader, readByIds } from '@pagecast/service-kit';
import mongoose from 'mongoose';

/**
 * Read model of screens.screen.changed.v1 / .revoked.v1: what a paired display may read. A device
 * identity reads a file only when it is one of these files or in one of these playlists of the screen's owner.
 */
export interface ScreenContentRecord {
  _id: string; // screenId
  ownerId: string;
  playlistIds: string[];
  fileIds: string[];
  /** the event time of the last change applied: an older event arriving late changes nothing */
  changedAt: Date;
  /** unpaired: kept as a tombstone so that a late change event cannot give access back */
  revoked: boolean;
}

/** A screen's record without its id: what the reducers below work on (null: never heard of). */
export type ScreenContentState = Omit<ScreenContentRecord, '_id'>;

// The reducers of the three events, shared by this read model (the database, one durable consumer) and the memory
// every instance keeps (screen-views.ts), so both come to the same record. Each returns `current` itself when the
// event changes nothing.

/** screens.screen.changed.v1: the whole record, unless it is a tombstone or already as new (`changedAt`). */
export function changedTo(
  current: ScreenContentState | null,
  next: Pick<ScreenContentRecord, 'ownerId' | 'playlistIds' | 'fileIds' | 'changedAt'>,
): ScreenContentState | null {
  if (current && (current.revoked || current.changedAt >= next.changedAt)) return current;
  return { ...next, revoked: false };
}

/**
 * screens.fleet.changed.v1 for one screen: its content added to what a live screen of this owner may read; a screen
 * not met yet gets a record dated at the epoch (its own next change event replaces it whole).
 */
export function grantedTo(
  current: ScreenContentState | null,
  ownerId: string,
  content: { playlistIds: string[]; fileIds: string[] },
): ScreenContentState | null {
  if (content.playlistIds.length + content.fileIds.length === 0) return current;
  const base = current ?? { ownerId, playlistIds: [], fileIds: [], changedAt: new Date(0), revoked: false };
  if (base.revoked || base.ownerId !== ownerId) return current;
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  return {
    ...base,
    playlistIds: union(base.playlistIds, content.playlistIds),
    fileIds: union(base.fileIds, content.fileIds),
  };
}

/** screens.screen.revoked.v1: a tombstone, whatever came before. */
export function revokedTo(ownerId: string, at: Date): ScreenContentState {
  return { ownerId, playlistIds: [], fileIds: [], changedAt: at, revoked: true };
}

const schema = new mongoose.Schema<ScreenContentRecord>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    playlistIds: { type: [String], default: [] },
    fileIds: { type: [String], default: [] },
    changedAt: { type: Date, required: true },
    revoked: { type: Boolean, default: false },
  },
  { collection: 'screen_content', versionKey: false },
);

export function createScreenContent(conn: mongoose.Connection) {
  const define = () => conn.model('ScreenContent', schema);
  const model = (conn.models.ScreenContent as ReturnType<typeof define> | undefined) ?? define();
  // Screens check their images in bursts (a playlist pushed to all of them): their records are read together.
  const records = createBatchLoader<string, ScreenContentRecord>(readByIds(model.collection));
  return {
    /** The screen's record as stored (a tombstone too), or null: read by `_id` with the others asked meanwhile. */
    async record(screenId: string): Promise<ScreenContentRecord | null> {
      return (await records.load(screenId)) ?? null;
    },
    /** One writer per screen (its owner's edits, in order); a redelivered or older event is ignored. */
    async apply(record: Omit<ScreenContentRecord, 'revoked'>): Promise<void> {
      const current = await model.findById(record._id).lean<ScreenContentRecord>();
      if (current && changedTo(current, record) === current) return;
      await model.updateOne({ _id: record._id }, { $set: { ...record, revoked: false } }, { upsert: true });
    },
    /**
     * One change to many screens (screens.fleet.changed.v1): these screens of this owner may now also read
     * this content (one command for all of them; a revoked screen is left as it is). A screen this model has not met
     * yet gets a record dated at the epoch, so its own next change event still replaces it whole.
     */
    async grant(
      screenIds: string[],
      ownerId: string,
      content: { playlistIds: string[]; fileIds: string[] },
    ): Promise<void> {
      if (screenIds.length === 0 || content.playlistIds.length + content.fileIds.length === 0) return;
      const known = await model.find({ _id: { $in: screenIds } }, { _id: 1 }).lean<Array<{ _id: string }>>();
      const seen = new Set(known.map((r) => r._id));
      const missing = screenIds.filter((id) => !seen.has(id));
      if (missing.length > 0) {
        await model.collection
          .insertMany(
            missing.map((_id) => ({
              _id,
              ownerId,
              playlistIds: [],
              fileIds: [],
              changedAt: new Date(0),
              revoked: false,
            })) as never[],
            { ordered: false },
          )
          .catch((err: { code?: number; writeErrors?: unknown }) => {
            // another delivery inserted them first
            if (err.code !== 11000 && !err.writeErrors) throw err;
          });
      }
      await model.updateMany(
        { _id: { $in: screenIds }, ownerId, revoked: false },
        { $addToSet: { playlistIds: { $each: content.playlistIds }, fileIds: { $each: content.fileIds } } },
      );
    },
    async revoke(screenId: string, ownerId: string, at: Date): Promise<void> {
      await model.updateOne({ _id: screenId }, { $set: revokedTo(ownerId, at) }, { upsert: true });
    },
  };
}
export type ScreenContent = ReturnType<typeof createScreenContent>;

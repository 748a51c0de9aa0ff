import { createBatchLoader, readByIds } from '@pagecast/service-kit';
import mongoose from 'mongoose';

/**
 * Read model of screens.screen.changed.v1 / .revoked.v1: what a paired display may read (issue 12). A device
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
  // Bumped before and after every change this process applies, so that a read overlapping a write sees the number
  // move: a view of what a screen may read (data/screen-views.ts) taken at another number is not used.
  let version = 0;
  return {
    /** How many changes this process has applied: a memo taken before a change is stale. */
    get version(): number {
      return version;
    },
    /** What a paired screen may read, or null (unknown or unpaired). */
    async get(screenId: string): Promise<ScreenContentRecord | null> {
      const record = await records.load(screenId);
      return record && !record.revoked ? record : null;
    },
    /** One writer per screen (its owner's edits, in order); a redelivered or older event is ignored. */
    async apply(record: Omit<ScreenContentRecord, 'revoked'>): Promise<void> {
      const current = await model.findById(record._id).lean<ScreenContentRecord>();
      if (current && (current.revoked || current.changedAt >= record.changedAt)) return;
      version += 1;
      await model.updateOne({ _id: record._id }, { $set: { ...record, revoked: false } }, { upsert: true });
      version += 1;
    },
    /**
     * One change to many screens (screens.fleet.changed.v1, issue 37): these screens of this owner may now also read
     * this content (one command for all of them; a revoked screen is left as it is). A screen this model has not met
     * yet gets a record dated at the epoch, so its own next change event still replaces it whole.
     */
    async grant(
      screenIds: string[],
      ownerId: string,
      content: { playlistIds: string[]; fileIds: string[] },
    ): Promise<void> {
      if (screenIds.length === 0 || content.playlistIds.length + content.fileIds.length === 0) return;
      version += 1;
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
      version += 1;
    },
    async revoke(screenId: string, ownerId: string, at: Date): Promise<void> {
      version += 1;
      await model.updateOne(
        { _id: screenId },
        { $set: { ownerId, playlistIds: [], fileIds: [], changedAt: at, revoked: true } },
        { upsert: true },
      );
      version += 1;
    },
  };
}
export type ScreenContent = ReturnType<typeof createScreenContent>;

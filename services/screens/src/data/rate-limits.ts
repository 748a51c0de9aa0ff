import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

interface AttemptRecord {
  _id: string;
  key: string;
  at: Date;
}
const attemptSchema = new mongoose.Schema<AttemptRecord>(
  { _id: { type: String, required: true }, key: { type: String, required: true }, at: { type: Date, required: true } },
  { collection: 'rate_limit_attempts', versionKey: false },
);
attemptSchema.index({ key: 1, at: 1 });

/**
 * Sliding-window counters shared by every replica: each attempt is its own insert (atomic on FerretDB where
 * `$inc` is not), then the window is counted, so parallel attempts cannot slip past the limit.
 */
export function createRateLimits(conn: mongoose.Connection) {
  const model =
    (conn.models.ScreensRateLimit as mongoose.Model<AttemptRecord> | undefined) ??
    conn.model('ScreensRateLimit', attemptSchema);
  return {
    /** Counts this attempt; true when it is within `max` per window. */
    async allow(key: string, max: number, windowMs: number, now = Date.now()): Promise<boolean> {
      await model.create({ _id: randomUUID(), key, at: new Date(now) });
      const count = await model.countDocuments({ key, at: { $gt: new Date(now - windowMs) } });
      // old attempts of this key are removed as we go (no TTL indexes on FerretDB)
      await model.deleteMany({ key, at: { $lte: new Date(now - windowMs) } });
      return count <= max;
    },
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

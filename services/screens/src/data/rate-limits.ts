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

/** Attempts older than every window are removed at most this often per process. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Sliding-window counters shared by every replica: each attempt is its own insert (atomic on FerretDB where
 * `$inc` is not), then the window is counted, so parallel attempts cannot slip past the limit.
 */
export function createRateLimits(conn: mongoose.Connection) {
  const model =
    (conn.models.ScreensRateLimit as mongoose.Model<AttemptRecord> | undefined) ??
    conn.model('ScreensRateLimit', attemptSchema);
  let sweptAt = Number.NEGATIVE_INFINITY;
  let longestWindow = 0;
  return {
    /** Counts this attempt (or `attempts` at once, one document each); true when all are within `max` per window. */
    async allow(key: string, max: number, windowMs: number, now = Date.now(), attempts = 1): Promise<boolean> {
      if (attempts === 1) await model.create({ _id: randomUUID(), key, at: new Date(now) });
      else
        await model.insertMany(Array.from({ length: attempts }, () => ({ _id: randomUUID(), key, at: new Date(now) })));
      const count = await model.countDocuments({ key, at: { $gt: new Date(now - windowMs) } });
      // old attempts are removed as we go (no TTL indexes on FerretDB), at most once a minute per process and for
      // every key at once: each removal scans the collection (one per attempt made pairing a fleet slow)
      longestWindow = Math.max(longestWindow, windowMs);
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        await model.deleteMany({ at: { $lte: new Date(now - longestWindow) } });
      }
      return count <= max;
    },
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

/** One counted attempt; a counter's value is the number of its attempts inside the sliding window. */
interface AttemptRecord {
  _id: string;
  key: string;
  at: Date;
  expire: Date;
}

const attemptSchema = new mongoose.Schema<AttemptRecord>(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    at: { type: Date, required: true },
    expire: { type: Date, required: true },
  },
  { collection: 'rate_limit_attempts', versionKey: false },
);
attemptSchema.index({ key: 1, at: 1 });
attemptSchema.index({ expire: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('RateLimitAttempt', attemptSchema);
type AttemptModel = ReturnType<typeof defineModel>;

export interface Hit {
  /** attempts in the window, this one included */
  count: number;
  /** seconds until the oldest attempt of the window leaves it */
  retryAfterSeconds(): Promise<number>;
  /** takes this attempt back (a successful login is not a failure; a refused one is no guess) */
  undo(): Promise<void>;
}

/**
 * Counters shared by every replica, in the database. Each hit inserts its own document and then counts the
 * window: inserts are atomic on FerretDB where a `$inc` is not (see claims.ts), and the n-th insert to land
 * always counts at least n, so parallel attempts cannot slip past a limit.
 */
export function createRateLimitRepository(conn: mongoose.Connection) {
  const model = (conn.models.RateLimitAttempt as AttemptModel | undefined) ?? defineModel(conn);
  return {
    model,
    async hit(key: string, windowMs: number, now = Date.now()): Promise<Hit> {
      const id = randomUUID();
      await model.create({ _id: id, key, at: new Date(now), expire: new Date(now + windowMs) });
      const since = new Date(now - windowMs);
      const count = await model.countDocuments({ key, at: { $gt: since } });
      return {
        count,
        // Only asked when refusing: the oldest attempt of the window decides when the next one is counted.
        retryAfterSeconds: async () => {
          const oldest = await model
            .findOne({ key, at: { $gt: since } }, { at: 1 })
            .sort({ at: 1 })
            .lean<AttemptRecord>();
          return Math.max(1, Math.ceil(((oldest?.at.getTime() ?? now) + windowMs - now) / 1000));
        },
        undo: async () => {
          await model.deleteOne({ _id: id });
        },
      };
    },
    async sweepExpired(now = new Date()): Promise<number> {
      const res = await model.deleteMany({ expire: { $lte: now } });
      return res.deletedCount;
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;

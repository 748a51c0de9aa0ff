import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

/**
 * One counted attempt; a counter's value is the number of its attempts inside the sliding window. One attempt
 * counts for several counters at once (a login: its account and its address), so it is one insert, not one each.
 */
interface AttemptRecord {
  _id: string;
  keys: string[];
  /** Records written before `keys` existed carry one key here; they leave the window within its length. */
  key?: string;
  at: Date;
  expire: Date;
}

const attemptSchema = new mongoose.Schema<AttemptRecord>(
  {
    _id: { type: String, required: true },
    keys: { type: [String], required: true },
    key: { type: String },
    at: { type: Date, required: true },
    expire: { type: Date, required: true },
  },
  { collection: 'rate_limit_attempts', versionKey: false },
);
attemptSchema.index({ keys: 1, at: 1 });
attemptSchema.index({ key: 1, at: 1 });
attemptSchema.index({ expire: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('RateLimitAttempt', attemptSchema);
type AttemptModel = ReturnType<typeof defineModel>;

export interface Hit {
  /** per key, in the order given: attempts in the window, this one included */
  counts: number[];
  /** seconds until the oldest attempt of key i's window leaves it */
  retryAfterSeconds(i: number): number;
  /** takes this attempt back from every key (a successful login is not a failure; a refused one is no guess) */
  undo(): Promise<void>;
}

/**
 * Counters shared by every replica, in the database. Each hit inserts its own document and then reads the
 * window of its keys: inserts are atomic on FerretDB where a `$inc` is not (see claims.ts), and the n-th insert
 * to land always counts at least n, so parallel attempts cannot slip past a limit. Two round trips per hit
 * whatever the number of keys: the window's attempts are few (refused ones are taken back), so they are read
 * and counted here.
 */
export function createRateLimitRepository(conn: mongoose.Connection) {
  const model = (conn.models.RateLimitAttempt as AttemptModel | undefined) ?? defineModel(conn);
  return {
    model,
    async hit(keys: string[], windowMs: number, now = Date.now()): Promise<Hit> {
      const id = randomUUID();
      await model.create({ _id: id, keys, at: new Date(now), expire: new Date(now + windowMs) });
      const since = new Date(now - windowMs);
      const inWindow = await model
        .find(
          { $or: [{ keys: { $in: keys } }, { key: { $in: keys } }], at: { $gt: since } },
          { keys: 1, key: 1, at: 1 },
        )
        .lean<Pick<AttemptRecord, 'keys' | 'key' | 'at'>[]>();
      const counts = keys.map(() => 0);
      const oldest = keys.map(() => now);
      for (const a of inWindow) {
        const held = a.keys ?? (a.key ? [a.key] : []);
        keys.forEach((k, i) => {
          if (!held.includes(k)) return;
          counts[i] = (counts[i] as number) + 1;
          oldest[i] = Math.min(oldest[i] as number, a.at.getTime());
        });
      }
      return {
        counts,
        // The oldest attempt of the window decides when the next one is counted.
        retryAfterSeconds: (i) => Math.max(1, Math.ceil(((oldest[i] ?? now) + windowMs - now) / 1000)),
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

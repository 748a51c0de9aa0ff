import { randomUUID } from 'node:crypto';
import { createBatchLoader, createGroupCommit } from '@pagecast/service-kit';
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
  // Attempts that arrive while a write runs share the next one (the kit's group commit): one insert, or one delete,
  // for all the logins in flight. A caller still waits until its own record is written (or gone), so the window it
  // reads next counts it.
  const inserts = createGroupCommit<AttemptRecord>(
    (docs) => model.collection.insertMany(docs as never[]).then(() => undefined),
    { maxBatch: 100 },
  );
  const deletes = createGroupCommit<string>((ids) => model.deleteMany({ _id: { $in: ids } }).then(() => undefined), {
    maxBatch: 100,
  });
  // The windows are read together too (the kit's batch loader): one query for the keys of every attempt waiting,
  // each caller keeping the attempts of its own window. A caller asks after its own insert landed, as before.
  type Seen = Pick<AttemptRecord, 'keys' | 'key' | 'at'>;
  const windowReads = createBatchLoader<{ keys: string[]; since: Date }, Seen[]>(
    async (asks) => {
      const keys = [...new Set(asks.flatMap((a) => a.keys))];
      const since = new Date(Math.min(...asks.map((a) => a.since.getTime())));
      const rows = await model
        .find(
          { $or: [{ keys: { $in: keys } }, { key: { $in: keys } }], at: { $gt: since } },
          { keys: 1, key: 1, at: 1 },
        )
        .lean<Seen[]>();
      return new Map(asks.map((a) => [a, rows.filter((r) => r.at.getTime() > a.since.getTime())]));
    },
    { maxBatch: 100 },
  );
  return {
    model,
    async hit(keys: string[], windowMs: number, now = Date.now()): Promise<Hit> {
      const id = randomUUID();
      await inserts.add(id, { _id: id, keys, at: new Date(now), expire: new Date(now + windowMs) });
      const since = new Date(now - windowMs);
      const inWindow = (await windowReads.load({ keys, since })) ?? [];
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
        undo: () => deletes.add(id, id),
      };
    },
    async sweepExpired(now = new Date()): Promise<number> {
      const res = await model.deleteMany({ expire: { $lte: now } });
      return res.deletedCount;
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;

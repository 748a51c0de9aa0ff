import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { isDuplicateKeyError } from './errors';

/**
 * One-time facts decided by an insert under a unique _id: the only write FerretDB 1.x (SQLite) makes atomic (its
 * updates and deletes read and then write, so a conditional update or delete can act on a document that changed in
 * between: a conditional update can have several "winners" and `$inc` loses updates).
 * `claim(id)` is true for exactly one caller per id. A claim with `expire` is a short lease kept as generations
 * `<id>#<n>`: a caller that finds generation n expired inserts generation n + 1, which only one caller can do, so an
 * expired lease goes to exactly one late caller without any delete deciding it. Releasing inserts the next
 * generation already expired.
 */
/** How long after its end a lease's last generation is kept (see sweepExpired). */
export const LEASE_SWEEP_GRACE_MS = 10 * 60_000;

export interface ClaimRecord {
  _id: string;
  /** random per claim: what a take-over or a release removes */
  token: string;
  at: Date;
  /** a lease ends here; null = kept for ever */
  expire: Date | null;
  data: Record<string, unknown> | null;
  /** leases only: the lease's id and this record's generation */
  base?: string;
  n?: number;
}

const claimSchema = new mongoose.Schema<ClaimRecord>(
  {
    _id: { type: String, required: true },
    token: { type: String, required: true },
    at: { type: Date, required: true },
    expire: { type: Date, default: null },
    data: { type: mongoose.Schema.Types.Mixed, default: null },
    base: { type: String },
    n: { type: Number },
  },
  { versionKey: false, minimize: false },
);
claimSchema.index({ expire: 1 });
claimSchema.index({ base: 1, n: -1 });

export interface Claims {
  /** True for exactly one caller per id (while a lease has not expired). `now` for tests with their own clock. */
  claim(id: string, opts?: { expire?: Date; data?: Record<string, unknown>; now?: Date }): Promise<ClaimRecord | null>;
  /** Ends a lease early (only the holder's own record: the token must match). */
  release(claim: Pick<ClaimRecord, '_id' | 'token'>): Promise<void>;
  get(id: string): Promise<ClaimRecord | null>;
  /** Removes expired leases (FerretDB has no TTL indexes); returns how many. */
  sweepExpired(now?: Date): Promise<number>;
  /**
   * Runs `fn` holding lease `id` for at most `ms` if no one holds it now (`{ held: false }`, and `fn` is not run,
   * otherwise): one instance at a time does a periodic job. Released when `fn` ends, thrown or not.
   */
  tryLease<T>(id: string, ms: number, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
  /**
   * Runs `fn` holding lease `id`, trying again (after `backoff(attempt)` ms) until `waitMs` has passed, then throwing
   * `busy()`. `queue`: callers of this process wait in line per id before trying, so they do not poll each other.
   */
  withLease<T>(id: string, fn: () => Promise<T>, opts: LeaseOptions): Promise<T>;
  model: mongoose.Model<ClaimRecord>;
}

export interface LeaseOptions {
  /** how long the lease is held at most (a crashed holder's lease is taken over after it) */
  ms: number;
  /** how long a caller waits for the lease (real time) */
  waitMs: number;
  /** the error a caller that did not get the lease in time gets */
  busy: () => Error;
  /** the pause before attempt n (1, 2, …): by default 20 ms, doubling, at most 250 ms */
  backoff?: (attempt: number) => number;
  queue?: boolean;
}

const defaultBackoff = (attempt: number) => Math.min(20 * 2 ** (attempt - 1), 250);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claims in `collection` (default 'claims') of this service's database. */
export function createClaims(conn: mongoose.Connection, collection = 'claims'): Claims {
  const modelName = `Claim_${collection}`;
  const model =
    (conn.models[modelName] as mongoose.Model<ClaimRecord> | undefined) ??
    conn.model<ClaimRecord>(modelName, claimSchema, collection);

  const insert = async (record: ClaimRecord) => {
    try {
      await model.create(record);
      return record;
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  };
  const fresh = (id: string, opts: { expire?: Date; data?: Record<string, unknown>; now?: Date }): ClaimRecord => ({
    _id: id,
    token: randomUUID(),
    at: opts.now ?? new Date(),
    expire: opts.expire ?? null,
    data: opts.data ?? null,
  });
  /** The newest generation of a lease (older ones are removed by whoever takes a newer one). */
  const latest = async (base: string) =>
    (await model.find({ base }).sort({ n: -1 }).limit(1).lean<ClaimRecord[]>())[0] ?? null;

  /** Runs fn holding a won lease, releasing it after; an unreleased lease (a failed release) expires by itself. */
  const holding = async <T>(lease: ClaimRecord, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } finally {
      await claims.release(lease).catch(() => {});
    }
  };
  /** This process's callers of a queued lease, in line per id (the tail of each line). */
  const lines = new Map<string, Promise<unknown>>();

  // leases run on real time: a test clock moved a day ahead must not keep other instances out for a day
  const leaseExpiry = (ms: number) => ({ expire: new Date(Date.now() + ms) });
  const waitFor = async <T>(id: string, fn: () => Promise<T>, opts: LeaseOptions): Promise<T> => {
    const deadline = Date.now() + opts.waitMs;
    for (let attempt = 1; ; attempt++) {
      const lease = await claims.claim(id, leaseExpiry(opts.ms));
      if (lease) return holding(lease, fn);
      if (Date.now() >= deadline) throw opts.busy();
      await pause((opts.backoff ?? defaultBackoff)(attempt));
    }
  };

  const claims: Claims = {
    model,
    async tryLease(id, ms, fn) {
      const lease = await claims.claim(id, leaseExpiry(ms));
      if (!lease) return { held: false };
      return { held: true, value: await holding(lease, fn) };
    },
    withLease(id, fn, opts) {
      if (!opts.queue) return waitFor(id, fn, opts);
      const leased = () => waitFor(id, fn, opts);
      const previous = lines.get(id) ?? Promise.resolve();
      const run = previous.then(leased, leased);
      const tail = run.catch(() => {});
      lines.set(id, tail);
      void tail.then(() => {
        if (lines.get(id) === tail) lines.delete(id);
      });
      return run;
    },
    async claim(id, opts = {}) {
      if (!opts.expire) return insert(fresh(id, opts));
      const now = opts.now ?? new Date();
      const current = await latest(id);
      if (current?.expire && current.expire.getTime() > now.getTime()) return null;
      const n = current ? (current.n ?? 0) + 1 : 0;
      const won = await insert({ ...fresh(`${id}#${n}`, opts), base: id, n });
      // Older generations are immutable and no longer the newest, so removing them cannot touch the new lease.
      if (won) await model.deleteMany({ base: id, n: { $lt: n } });
      return won;
    },
    async release(claim) {
      const record = await model.findById(claim._id).lean<ClaimRecord>();
      if (!record || record.token !== claim.token) return;
      if (record.base === undefined || record.n === undefined) {
        await model.deleteOne({ _id: claim._id, token: claim.token });
        return;
      }
      // The next generation, ending now: the next caller takes the one after it; if a late caller took the next
      // generation first (this lease had expired), this insert loses and changes nothing. It ends now, not at some
      // past date, so that the sweep keeps it through the grace like any other newest generation.
      const n = record.n + 1;
      await insert({
        ...fresh(`${record.base}#${n}`, { expire: new Date() }),
        token: 'released',
        base: record.base,
        n,
      });
    },
    async get(id) {
      const found = (await model.findById(id).lean<ClaimRecord>()) ?? (await latest(id));
      return found?.token === 'released' ? null : found;
    },
    async sweepExpired(now = new Date()) {
      // A lease's newest generation decides who takes the next one, so it goes only long after it expired, when no
      // caller can still hold the number it read before; one-time claims go as soon as they expire.
      const res = await model.deleteMany({
        $or: [
          { base: { $exists: false }, expire: { $ne: null, $lte: now } },
          { base: { $exists: true }, expire: { $lte: new Date(now.getTime() - LEASE_SWEEP_GRACE_MS) } },
        ],
      });
      return res.deletedCount;
    },
  };
  return claims;
}

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
  model: mongoose.Model<ClaimRecord>;
}

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

  return {
    model,
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
}

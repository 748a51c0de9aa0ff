import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { isDuplicateKeyError } from './errors';

/**
 * One-time facts decided by an insert under a unique _id: the only write FerretDB 1.x (SQLite) makes atomic (its
 * updates read and then write, so a conditional update can have several "winners" and `$inc` loses updates).
 * `claim(id)` is true for exactly one caller per id. A claim with `expire` is a short lease: once expired, the
 * next `claim` removes exactly that expired record (filtered by its token, so two late callers cannot both remove
 * it and both win) and then races for a fresh insert, which again only one caller wins.
 */
export interface ClaimRecord {
  _id: string;
  /** random per claim: what a take-over or a release removes */
  token: string;
  at: Date;
  /** a lease ends here; null = kept for ever */
  expire: Date | null;
  data: Record<string, unknown> | null;
}

const claimSchema = new mongoose.Schema<ClaimRecord>(
  {
    _id: { type: String, required: true },
    token: { type: String, required: true },
    at: { type: Date, required: true },
    expire: { type: Date, default: null },
    data: { type: mongoose.Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);
claimSchema.index({ expire: 1 });

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

  const insert = async (id: string, opts: { expire?: Date; data?: Record<string, unknown>; now?: Date }) => {
    const record: ClaimRecord = {
      _id: id,
      token: randomUUID(),
      at: opts.now ?? new Date(),
      expire: opts.expire ?? null,
      data: opts.data ?? null,
    };
    try {
      await model.create(record);
      return record;
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  };

  return {
    model,
    async claim(id, opts = {}) {
      const won = await insert(id, opts);
      if (won) return won;
      const now = opts.now ?? new Date();
      const existing = await model.findById(id).lean<ClaimRecord>();
      if (!existing?.expire || existing.expire.getTime() > now.getTime()) return null;
      await model.deleteOne({ _id: id, token: existing.token });
      return insert(id, opts);
    },
    async release(claim) {
      await model.deleteOne({ _id: claim._id, token: claim.token });
    },
    get: (id) => model.findById(id).lean<ClaimRecord>(),
    async sweepExpired(now = new Date()) {
      const res = await model.deleteMany({ expire: { $ne: null, $lte: now } });
      return res.deletedCount;
    },
  };
}

import { isDuplicateKeyError } from '@pagecast/service-kit';
import mongoose from 'mongoose';

/**
 * One-time facts decided by an insert under a unique _id: the only write FerretDB 1.x (SQLite) makes atomic.
 * Its updates read and then write without a transaction (FerretDB issue #3040; measured here: 20 parallel
 * conditional updates of one document had up to 13 "winners", 20 parallel $inc kept 1), so "only the first
 * caller wins" is built on inserts: first login, a migration, the use of a token.
 */
export interface ClaimRecord {
  _id: string;
  at: Date;
  /** removed by the sweeper after this; null = kept */
  expire: Date | null;
  data: Record<string, unknown> | null;
}

const claimSchema = new mongoose.Schema<ClaimRecord>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    expire: { type: Date, default: null },
    data: { type: mongoose.Schema.Types.Mixed, default: null },
  },
  { collection: 'claims', versionKey: false },
);
claimSchema.index({ expire: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('Claim', claimSchema);
type ClaimModel = ReturnType<typeof defineModel>;

export function createClaimRepository(conn: mongoose.Connection) {
  const model = (conn.models.Claim as ClaimModel | undefined) ?? defineModel(conn);
  return {
    model,
    /** True for exactly one caller per id. */
    async claim(id: string, opts: { expire?: Date; data?: Record<string, unknown> } = {}): Promise<boolean> {
      try {
        await model.create({ _id: id, at: new Date(), expire: opts.expire ?? null, data: opts.data ?? null });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    },
    get(id: string): Promise<ClaimRecord | null> {
      return model.findById(id).lean<ClaimRecord>();
    },
    async sweepExpired(now = new Date()): Promise<number> {
      const res = await model.deleteMany({ expire: { $ne: null, $lte: now } });
      return res.deletedCount;
    },
  };
}
export type ClaimRepository = ReturnType<typeof createClaimRepository>;

import { insertManyOnce, isDuplicateKeyError } from '@pagecast/service-kit';
import mongoose from 'mongoose';
import type { Models, PairingClaimRecord, PairingRecord } from './models';

/**
 * A code while it is shown: `_id` is the code itself, so a code is alive once at most (an insert under a
 * unique key, atomic on FerretDB) and a claim finds its pairing by `_id` (only `_id` is indexed on FerretDB: a find
 * by `code` scanned every pairing, several times per pairing, which made pairing a fleet quadratic).
 */
interface PairingCodeRecord {
  _id: string;
  pairingId: string;
  expiresAt: Date;
}
const codeSchema = new mongoose.Schema<PairingCodeRecord>(
  {
    _id: { type: String, required: true },
    pairingId: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'pairing_codes', versionKey: false },
);

/** Expired codes and pairings are removed at most this often per process (each removal scans). */
const SWEEP_EVERY_MS = 60_000;

export function createPairingRepository(models: Models) {
  const { pairings, claims } = models;
  const conn = pairings.db;
  const codes =
    (conn.models.PairingCode as mongoose.Model<PairingCodeRecord> | undefined) ??
    conn.model<PairingCodeRecord>('PairingCode', codeSchema);
  let sweptAt = Number.NEGATIVE_INFINITY;

  /** The alive pairings of these codes: by the code documents, then by pairingId (both by `_id`). */
  const aliveByCode = async (list: string[], now: Date): Promise<PairingRecord[]> => {
    const held = await codes.find({ _id: { $in: list } }).lean<PairingCodeRecord[]>();
    const alive = held.filter((c) => c.expiresAt > now);
    const found = alive.length
      ? await pairings.find({ _id: { $in: alive.map((c) => c.pairingId) } }).lean<PairingRecord[]>()
      : [];
    const result = found.filter((p) => p.expiresAt > now && list.includes(p.code));
    // Pairings made before the code documents (a replica of the previous version, up to five minutes after a
    // deploy) have none: those codes are looked up by the scan, as before.
    const missing = list.filter((code) => !held.some((c) => c._id === code));
    if (missing.length) {
      result.push(
        ...(await pairings.find({ code: { $in: missing }, expiresAt: { $gt: now } }).lean<PairingRecord[]>()),
      );
    }
    return result;
  };

  return {
    async create(record: PairingRecord): Promise<void> {
      await pairings.create(record);
    },
    /**
     * Reserves `code` for this pairing until `expiresAt`: false when it is alive for another pairing (draw again).
     * A code whose pairing expired is taken over (of two taking it over at once, one insert lands).
     */
    async reserveCode(code: string, pairingId: string, expiresAt: Date, now: Date): Promise<boolean> {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await codes.create({ _id: code, pairingId, expiresAt });
          return true;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
        const held = await codes.findById(code).lean<PairingCodeRecord>();
        if (held && held.expiresAt > now) return false;
        if (held) await codes.deleteOne({ _id: code, pairingId: held.pairingId });
      }
      return false;
    },
    get: (pairingId: string) => pairings.findById(pairingId).lean<PairingRecord>(),
    /** Pairings whose code is still shown (not expired); one at most. */
    findActive: (code: string, now: Date) => aliveByCode([code], now),
    /** The pairings of these codes still shown (read by `_id`, two commands for them all). */
    findActiveMany: (list: string[], now: Date) => aliveByCode(list, now),
    /** The insert-once claim: true for the one caller whose insert landed, false for everyone after. */
    async claim(record: PairingClaimRecord): Promise<boolean> {
      try {
        await claims.create(record);
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    },
    /**
     * Many insert-once claims in one unordered insert: the ids (pairingIds) whose insert landed. Each one is atomic
     * on its own, as `claim` is: of two callers claiming one code, one lands.
     */
    async claimMany(records: PairingClaimRecord[]): Promise<Set<string>> {
      const landed = new Set(records.map((r) => r._id));
      if (records.length === 0) return landed;
      for (const i of await insertManyOnce(claims.collection as never, records))
        landed.delete((records[i] as PairingClaimRecord)._id);
      return landed;
    },
    claimOf: (pairingId: string) => claims.findById(pairingId).lean<PairingClaimRecord>(),
    /**
     * Codes long expired are of no use (their claims, and the screens, stay): removed as new ones are made, at most
     * once a minute per process.
     */
    async removeExpired(before: Date, now = Date.now()): Promise<void> {
      if (now - sweptAt < SWEEP_EVERY_MS) return;
      sweptAt = now;
      await pairings.deleteMany({ expiresAt: { $lt: before } });
      await codes.deleteMany({ expiresAt: { $lt: before } });
    },
  };
}
export type PairingRepository = ReturnType<typeof createPairingRepository>;

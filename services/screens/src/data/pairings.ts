import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Models, PairingClaimRecord, PairingRecord } from './models';

export function createPairingRepository(models: Models) {
  const { pairings, claims } = models;
  return {
    async create(record: PairingRecord): Promise<void> {
      await pairings.create(record);
    },
    get: (pairingId: string) => pairings.findById(pairingId).lean<PairingRecord>(),
    /** Pairings whose code is still shown (not expired); normally one. */
    findActive: (code: string, now: Date) => pairings.find({ code, expiresAt: { $gt: now } }).lean<PairingRecord[]>(),
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
    claimOf: (pairingId: string) => claims.findById(pairingId).lean<PairingClaimRecord>(),
    /** Codes long expired are of no use (their claims, and the screens, stay): removed as new ones are made. */
    async removeExpired(before: Date): Promise<void> {
      await pairings.deleteMany({ expiresAt: { $lt: before } });
    },
  };
}
export type PairingRepository = ReturnType<typeof createPairingRepository>;

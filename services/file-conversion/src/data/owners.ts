import type { MembershipTier } from '@pagecast/contracts';
import { type Clock, createWriteLocks, isDuplicateKeyError } from '@pagecast/service-kit';
import { DEFAULT_TIER, fileLimitFor } from '../domain';
import type { Models, OwnerDoc } from './models';

/** The owners read model (tier and points as account and billing announce them) and the tier slots. */
export function createOwners(models: Models, clock: Clock) {
  const { owners, fileSlots } = models;
  // The tier and the balance are written by two consumers at once (account's registrations, billing's tier and balance
  // events; in one process and across replicas), and FerretDB writes an update back as the whole document it read: a
  // tier beside a balance lost one of them in 28 of 60 rounds (test/owner-writes.test.ts). Each write holds the
  // owner's lock.
  const locks = createWriteLocks(owners.db, 'owner_locks');

  /** The owner's document, created with the default tier if we have not heard of them yet. */
  async function ensure(userId: string): Promise<OwnerDoc> {
    const found = await owners.findById(userId).lean<OwnerDoc>();
    if (found) return found;
    const doc: OwnerDoc = {
      _id: userId,
      membershipTier: DEFAULT_TIER,
      tierAt: null,
      points: 0,
      pointsAt: null,
      updatedAt: clock.now(),
    };
    try {
      await owners.create(doc);
      return doc;
    } catch (err) {
      // another request created it first
      if (!isDuplicateKeyError(err)) throw err;
      return (await owners.findById(userId).lean<OwnerDoc>()) as OwnerDoc;
    }
  }

  return {
    ensure,

    /**
     * Takes one of the tier's file slots for `fileId`, or answers false when all are taken. Slot n is the document
     * `<userId>:<n>`, n < limit: two concurrent uploads cannot take the same one (unique _id), so the limit holds.
     */
    async reserveSlot(userId: string, fileId: string): Promise<{ ok: boolean; limit: number }> {
      const owner = await ensure(userId);
      const limit = fileLimitFor(owner.membershipTier);
      const taken = new Set(
        (await fileSlots.find({ userId }).select({ _id: 1 }).lean<{ _id: string }[]>()).map((s) => s._id),
      );
      for (let n = 0; n < limit; n++) {
        const _id = `${userId}:${n}`;
        if (taken.has(_id)) continue;
        try {
          await fileSlots.create({ _id, userId, fileId, createdAt: clock.now() });
        } catch (err) {
          if (isDuplicateKeyError(err)) continue; // a concurrent upload took it
          throw err;
        }
        // After a downgrade a member may still hold slots above the new limit: those count too.
        if ((await fileSlots.countDocuments({ userId })) > limit) {
          await fileSlots.deleteOne({ _id, fileId });
          return { ok: false, limit };
        }
        return { ok: true, limit };
      }
      return { ok: false, limit };
    },

    /** Whether a slot is free now, without taking it: a resumable upload is refused before its bytes are sent. */
    async hasFreeSlot(userId: string): Promise<{ ok: boolean; limit: number }> {
      const owner = await ensure(userId);
      const limit = fileLimitFor(owner.membershipTier);
      return { ok: (await fileSlots.countDocuments({ userId })) < limit, limit };
    },

    async releaseSlot(fileId: string): Promise<void> {
      await fileSlots.deleteMany({ fileId });
    },

    slotsHeld: (userId: string) => fileSlots.countDocuments({ userId }),

    /**
     * Keeps the newest tier. Registrations (account's stream) and tier changes (billing's) come through two
     * consumers, in no set order between them: a registration read after the upgrade that followed it, or a change
     * redelivered after a newer one, must not put the older tier back.
     */
    async setTier(userId: string, tier: MembershipTier, at: Date): Promise<void> {
      await ensure(userId);
      await locks.withLock(userId, () =>
        owners.updateOne(
          { _id: userId, $or: [{ tierAt: null }, { tierAt: { $lte: at } }] },
          { $set: { membershipTier: tier, tierAt: at, updatedAt: clock.now() } },
        ),
      );
    },

    /** Keeps the newest balance: an older event arriving late does not overwrite it. */
    async setPoints(userId: string, points: number, at: Date): Promise<void> {
      await ensure(userId);
      await locks.withLock(userId, () =>
        owners.updateOne(
          { _id: userId, $or: [{ pointsAt: null }, { pointsAt: { $lte: at } }] },
          { $set: { points, pointsAt: at, updatedAt: clock.now() } },
        ),
      );
    },
  };
}
export type Owners = ReturnType<typeof createOwners>;

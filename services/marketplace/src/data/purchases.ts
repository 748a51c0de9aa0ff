import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { LicenceDoc, Models, PurchaseDoc } from './models';

/** Purchase intents and their licences (content_purchases). */
export function createPurchases({ purchases, licences }: Models) {
  const active = (now: Date) => ({ expiresAt: { $gt: now }, expiredAt: null });
  return {
    get: (id: string) => purchases.findById(id).lean<PurchaseDoc>(),
    byClaimKey: (claimKey: string) => purchases.findOne({ claimKey }).lean<PurchaseDoc>(),

    /** Inserts the intent; false when another request holds the same claim key (the insert is the one atomic step). */
    async claim(doc: PurchaseDoc): Promise<boolean> {
      try {
        await purchases.create(doc);
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    },

    /** How many of the buyer's purchases of the file are over (abandoned, or licence ended): the next generation. */
    async endedCount(buyerId: string, fileId: string, now: Date): Promise<number> {
      const list = await purchases.find({ buyerId, fileId }).lean<PurchaseDoc[]>();
      const completed = list.filter((p) => p.state === 'completed').map((p) => p._id);
      const live = completed.length
        ? new Set(
            (
              await licences.find({ _id: { $in: completed }, ...active(now) }, { _id: 1 }).lean<{ _id: string }[]>()
            ).map((l) => l._id),
          )
        : new Set<string>();
      return list.filter((p) => p.state === 'abandoned' || (p.state === 'completed' && !live.has(p._id))).length;
    },

    setState: (id: string, state: 'completed' | 'abandoned', extra: { reason?: string; purchasedAt?: Date } = {}) =>
      purchases.updateOne(
        { _id: id },
        { $set: { state, reason: extra.reason ?? null, purchasedAt: extra.purchasedAt ?? null } },
      ),

    pendingOlderThan: (before: Date, limit = 50) =>
      purchases
        .find({ state: 'pending', createdAt: { $lt: before } })
        .sort({ createdAt: 1 })
        .limit(limit)
        .lean<PurchaseDoc[]>(),

    // --- licences
    /** Records the licence once (the purchase id is its _id): a retry or the sweeper adds nothing. */
    async recordLicence(l: LicenceDoc): Promise<LicenceDoc> {
      try {
        await licences.create(l);
        return l;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        return (await licences.findById(l._id).lean<LicenceDoc>()) ?? l;
      }
    },
    getLicence: (id: string) => licences.findById(id).lean<LicenceDoc>(),
    async holdsActive(buyerId: string, fileId: string, now: Date): Promise<boolean> {
      return (await licences.exists({ buyerId, fileId, ...active(now) })) !== null;
    },
    async activeFileIds(buyerId: string, fileIds: string[], now: Date): Promise<Set<string>> {
      if (!fileIds.length) return new Set();
      const rows = await licences
        .find({ buyerId, fileId: { $in: fileIds }, ...active(now) }, { fileId: 1 })
        .lean<{ fileId: string }[]>();
      return new Set(rows.map((r) => r.fileId));
    },
    /** Licences whose time is up and whose end is not yet announced. */
    dueForExpiry: (now: Date, limit = 200) =>
      licences
        .find({ expiredAt: null, expiresAt: { $lte: now } })
        .sort({ expiresAt: 1 })
        .limit(limit)
        .lean<LicenceDoc[]>(),
    markExpired: (id: string, at: Date) =>
      licences.updateOne({ _id: id, expiredAt: null }, { $set: { expiredAt: at } }),
  };
}
export type Purchases = ReturnType<typeof createPurchases>;

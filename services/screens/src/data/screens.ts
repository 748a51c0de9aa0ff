import { setNewest } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { Models, ScreenRecord } from './models';

/** How many screens' records the device check keeps (a bounded map: the oldest goes first). */
const RECENT_MAX = 20_000;

export function createScreenRepository(models: Models) {
  const { screens } = models;
  const recent = new Map<string, { record: ScreenRecord | null; at: number }>();
  // A read that a change made here overtook is not remembered (it could hold the record from before a revocation).
  let changes = 0;
  const read = async (id: string, now: number): Promise<ScreenRecord | null> => {
    const before = changes;
    const record = await screens.findById(id).lean<ScreenRecord>();
    if (changes === before) {
      setNewest(recent, id, { record, at: now }, RECENT_MAX);
    }
    return record;
  };
  return {
    async create(record: ScreenRecord): Promise<void> {
      changes++;
      recent.delete(record._id);
      await screens.create(record);
    },
    /** The record read now (what a display plays); the device check below reuses it. */
    get: (id: string, now = Date.now()) => read(id, now),
    /**
     * The record as read at most maxAgeMs ago by this process (a display's frequent reports need not each read it).
     * A change made here forgets it at once; one made by another instance shows within maxAgeMs, and a revoked
     * device is refused by the gateway before that (revocations reach it over NATS).
     */
    async getRecent(id: string, maxAgeMs: number, now = Date.now()): Promise<ScreenRecord | null> {
      const hit = recent.get(id);
      if (hit && now - hit.at <= maxAgeMs) return hit.record;
      return read(id, now);
    },
    byPairing: (pairingId: string) => screens.findOne({ pairingId }).lean<ScreenRecord>(),
    listActive: (ownerId: string) =>
      screens.find({ ownerId, revokedAt: null }).sort({ pairedAt: 1 }).lean<ScreenRecord[]>(),
    /** Single-writer fields (the owner edits, the screen's own device reports): a plain $set is enough. */
    async set(id: string, fields: Partial<Omit<ScreenRecord, '_id'>>): Promise<void> {
      changes++;
      recent.delete(id);
      await screens.updateOne({ _id: id }, { $set: fields });
      changes++;
      recent.delete(id);
    },
    /** One update of many screens (one command); the device check forgets them. */
    async updateMany(ids: string[], update: mongoose.UpdateQuery<ScreenRecord>): Promise<void> {
      changes++;
      for (const id of ids) recent.delete(id);
      await screens.updateMany({ _id: { $in: ids } }, update);
      changes++;
      for (const id of ids) recent.delete(id);
    },
    /** Different fields per screen, in chunks of 50 updates (more in one bulkWrite hangs FerretDB). */
    async setEach(writes: Array<{ id: string; fields: Partial<Omit<ScreenRecord, '_id'>> }>): Promise<void> {
      changes++;
      for (const w of writes) recent.delete(w.id);
      for (let i = 0; i < writes.length; i += 50) {
        await screens.bulkWrite(
          writes.slice(i, i + 50).map((w) => ({ updateOne: { filter: { _id: w.id }, update: { $set: w.fields } } })),
          { ordered: false },
        );
      }
      changes++;
      for (const w of writes) recent.delete(w.id);
    },
    byIds: (ids: string[]) => screens.find({ _id: { $in: ids } }).lean<ScreenRecord[]>(),
  };
}
export type ScreenRepository = ReturnType<typeof createScreenRepository>;

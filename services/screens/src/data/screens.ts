import type { Models, ScreenRecord } from './models';

export function createScreenRepository(models: Models) {
  const { screens } = models;
  return {
    async create(record: ScreenRecord): Promise<void> {
      await screens.create(record);
    },
    get: (id: string) => screens.findById(id).lean<ScreenRecord>(),
    byPairing: (pairingId: string) => screens.findOne({ pairingId }).lean<ScreenRecord>(),
    listActive: (ownerId: string) =>
      screens.find({ ownerId, revokedAt: null }).sort({ pairedAt: 1 }).lean<ScreenRecord[]>(),
    /** Single-writer fields (the owner edits, the screen's own device reports): a plain $set is enough. */
    async set(id: string, fields: Partial<Omit<ScreenRecord, '_id'>>): Promise<void> {
      await screens.updateOne({ _id: id }, { $set: fields });
    },
  };
}
export type ScreenRepository = ReturnType<typeof createScreenRepository>;

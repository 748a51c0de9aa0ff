import type mongoose from 'mongoose';
import type { DeviceView } from './device-view';
import type { Models, ScreenRecord } from './models';

/** What the health of a screen needs of its record. */
export type HealthScreenRecord = Pick<
  ScreenRecord,
  '_id' | 'ownerId' | 'name' | 'timeZone' | 'assignment' | 'groupIds' | 'rotation' | 'openingHours'
>;

/**
 * The screens' records. A display's calls (its manifest, heartbeat and play batch checks) and the fleet view's
 * per-owner list are answered from the device view (device-view.ts: in memory on every instance, current with every
 * change made here, re-read before the call answers, and with every change announced by another instance); the
 * member's own pages read the database.
 */
export function createScreenRepository(models: Models, view: DeviceView) {
  const { screens } = models;
  /**
   * The owner's active screens from the device view's owner index, in no set order: no query (one only while the
   * view may be incomplete, and behind its backstop). A takeover's target: listActive's query reads and decodes every
   * screen of the owner (0.1 s per 1,000 on an idle database) on the call that starts it.
   */
  const activeHeld = (ownerId: string): Promise<ScreenRecord[]> =>
    view.ownerScreens(ownerId, () => screens.find({ ownerId, revokedAt: null }).lean<ScreenRecord[]>());
  return {
    async create(record: ScreenRecord): Promise<void> {
      let created: ScreenRecord;
      try {
        // as stored (the schema's defaults): what a read of it would give
        created = (await screens.create(record)).toObject() as ScreenRecord;
      } catch (err) {
        await view.refreshScreens([record._id]);
        throw err;
      }
      view.putScreen(created);
    },
    /** The record read now from the database (the member's pages). */
    get: (id: string, _now?: number) => screens.findById(id).lean<ScreenRecord>(),
    /**
     * The records of these screens as the device view holds them (revoked ones too; the misses read by `_id` in one
     * command): the play judge's group.
     */
    ofDevices: (ids: readonly string[]) => view.screens(ids),
    /** The record as the device view holds it (a display's calls: no database read once loaded), or null. */
    ofDevice: (id: string) => view.screen(id),
    byPairing: (pairingId: string) => screens.findOne({ pairingId }).lean<ScreenRecord>(),
    listActive: (ownerId: string) =>
      screens.find({ ownerId, revokedAt: null }).sort({ pairedAt: 1 }).lean<ScreenRecord[]>(),
    /** Single-writer fields (the owner edits, the screen's own device reports): a plain $set is enough. */
    async set(id: string, fields: Partial<Omit<ScreenRecord, '_id'>>): Promise<void> {
      try {
        await screens.updateOne({ _id: id }, { $set: fields });
      } finally {
        await view.refreshScreens([id]);
      }
    },
    /**
     * Moves a screen's newest history number from `from` to `to` only if it is still `from` (a change made meanwhile
     * moved it on, and its own entry follows this one). One command; the device view re-reads it.
     */
    async advanceSeq(id: string, from: number, to: number): Promise<void> {
      try {
        await screens.updateOne({ _id: id, assignmentSeq: from }, { $set: { assignmentSeq: to } });
      } finally {
        await view.refreshScreens([id]);
      }
    },
    /** One update of many screens (one command); the device view re-reads them. */
    async updateMany(ids: string[], update: mongoose.UpdateQuery<ScreenRecord>): Promise<void> {
      try {
        await screens.updateMany({ _id: { $in: ids } }, update);
      } finally {
        await view.refreshScreens(ids);
      }
    },
    /** Different fields per screen, in chunks of 50 updates (more in one bulkWrite hangs FerretDB). */
    async setEach(writes: Array<{ id: string; fields: Partial<Omit<ScreenRecord, '_id'>> }>): Promise<void> {
      try {
        for (let i = 0; i < writes.length; i += 50) {
          await screens.bulkWrite(
            writes.slice(i, i + 50).map((w) => ({ updateOne: { filter: { _id: w.id }, update: { $set: w.fields } } })),
            { ordered: false },
          );
        }
      } finally {
        await view.refreshScreens(writes.map((w) => w.id));
      }
    },
    /** Every active screen, read in batches of `size` (a pass over the whole fleet at start). */
    async *activeInBatches(size: number): AsyncGenerator<ScreenRecord[]> {
      let batch: ScreenRecord[] = [];
      for await (const screen of screens.collection.find<ScreenRecord>({ revokedAt: null }).batchSize(size)) {
        batch.push(screen);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    /** Every active screen (the alert feed, when the device view cannot answer). */
    allActive: () => screens.find({ revokedAt: null }).lean<ScreenRecord[]>(),
    byIds: (ids: string[]) => screens.find({ _id: { $in: ids } }).lean<ScreenRecord[]>(),
    activeHeld,
    /** The owner's active screens for their health (the fleet view): as activeHeld. */
    forHealth: (ownerId: string, _now?: number): Promise<HealthScreenRecord[]> => activeHeld(ownerId),
  };
}
export type ScreenRepository = ReturnType<typeof createScreenRepository>;

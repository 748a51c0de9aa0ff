import { createWriteBehind, type Logger } from '@pagecast/service-kit';
import type { Models, ScreenStatusDoc } from './models';

/**
 * Heartbeats. Thousands of displays report every interval, and each report replaces the last: a heartbeat is
 * answered as soon as it is in memory, and one bulk write at a time stores the newest state of every screen that
 * reported meanwhile (write-behind, in the kit). A crash loses at most the states not yet written, which the next
 * heartbeat restores; a write that fails is tried again. Reads in this process see the states not yet written.
 * Measured on FerretDB: a heartbeat that waited for its write took 150 ms at the median with 100 displays.
 */
export function createStatusRepository(models: Models, logger?: Logger) {
  const { statuses } = models;
  const writer = createWriteBehind<ScreenStatusDoc>(
    async (docs) => {
      await statuses.bulkWrite(
        docs.map(({ _id, ...fields }) => ({
          updateOne: { filter: { _id }, update: { $set: fields }, upsert: true },
        })),
        { ordered: false },
      );
    },
    {
      // FerretDB (SQLite) hangs the whole database for good on one bulkWrite of more than 100 updates of existing
      // documents (measured: 99 pass, 101 never answer); a large fleet's heartbeats go in writes of 50.
      maxBatch: 50,
      onError: (err, items) => logger?.warn({ err, items }, 'storing screen statuses failed; trying again'),
    },
  );
  return {
    record: (doc: ScreenStatusDoc): void => writer.put(doc._id, doc),
    async forOwner(ownerId: string) {
      const stored = await statuses.find({ ownerId }).lean<ScreenStatusDoc[]>();
      const byId = new Map(stored.map((d) => [d._id, d] as const));
      for (const doc of writer.pendingItems()) if (doc.ownerId === ownerId) byId.set(doc._id, doc);
      return byId;
    },
    get: async (screenId: string) =>
      writer.pending(screenId) ?? (await statuses.findById(screenId).lean<ScreenStatusDoc>()),
    /** stores every state not yet written (shutdown) */
    flush: () => writer.flush(),
    /** figures: how many bulk writes heartbeats took */
    get writes() {
      return writer.writes;
    },
  };
}
export type StatusRepository = ReturnType<typeof createStatusRepository>;

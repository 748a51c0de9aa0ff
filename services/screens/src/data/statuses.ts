import { createGroupCommit } from '@pagecast/service-kit';
import type { Models, ScreenStatusDoc } from './models';

/**
 * Heartbeats. Thousands of displays report every interval: each answer waits until its state is stored, but the
 * states that arrive while a write runs go together in the next one (one bulk write per round trip, not one write
 * per display; see the kit's group commit). Only the newest state of a screen is written.
 */
export function createStatusRepository(models: Models) {
  const { statuses } = models;
  const writer = createGroupCommit<ScreenStatusDoc>(async (docs) => {
    await statuses.bulkWrite(
      docs.map(({ _id, ...fields }) => ({
        updateOne: { filter: { _id }, update: { $set: fields }, upsert: true },
      })),
      { ordered: false },
    );
  });
  return {
    record: (doc: ScreenStatusDoc): Promise<void> => writer.add(doc._id, doc),
    forOwner: async (ownerId: string) =>
      new Map((await statuses.find({ ownerId }).lean<ScreenStatusDoc[]>()).map((d) => [d._id, d] as const)),
    get: (screenId: string) => statuses.findById(screenId).lean<ScreenStatusDoc>(),
    /** figures: how many bulk writes heartbeats took */
    get writes() {
      return writer.writes;
    },
  };
}
export type StatusRepository = ReturnType<typeof createStatusRepository>;

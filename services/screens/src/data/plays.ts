import { randomUUID } from 'node:crypto';
import type { PlayRefusalReason } from '@pagecast/contracts';
import {
  type ByIdCollection,
  createBatchLoader,
  createGroupCommit,
  insertManyOnce,
  readByIds,
} from '@pagecast/service-kit';
import type { Models, PlayRecordDoc, PlayRefusalDoc } from './models';

export interface RefusedCountRow {
  day: string;
  screenId: string;
  reason: PlayRefusalReason;
  records: number;
  seconds: number;
}

export interface PlayCountRow {
  day: string;
  screenId: string;
  fileId: string;
  plays: number;
  seconds: number;
}

export interface SoldCountRow {
  day: string;
  fileId: string;
  plays: number;
  seconds: number;
}

interface QueuedBatch {
  key: string;
  records: PlayRecordDoc[];
}

export function createPlayRepository(models: Models) {
  const { plays, refusals } = models;
  // a batch asks whether its records are stored already: its ids, and those of batches arriving meanwhile, in one
  // `$in` per collection
  const storedPlays = createBatchLoader<string, PlayRecordDoc>(
    readByIds<PlayRecordDoc>(plays.collection as unknown as ByIdCollection),
  );
  const storedRefusals = createBatchLoader<string, PlayRefusalDoc>(
    readByIds<PlayRefusalDoc>(refusals.collection as unknown as ByIdCollection),
  );
  /** duplicates per display batch of the insert that held it, read by its caller once the insert is done */
  const duplicatesOf = new Map<string, number>();
  // Displays report every interval: the batches that arrive while an insert runs go together in the next one (the
  // kit's group commit), so the database sees one insert per round trip, not one per display (SQLite behind FerretDB
  // takes one writer at a time). Each caller still waits until its records are stored.
  const writer = createGroupCommit<QueuedBatch>(
    async (batches) => {
      const records = batches.flatMap((b) => b.records);
      const batchOf = batches.flatMap((b) => b.records.map(() => b.key));
      for (const b of batches) duplicatesOf.set(b.key, 0);
      let taken: number[];
      try {
        taken = await insertManyOnce(plays.collection as never, records);
      } catch (err) {
        for (const b of batches) duplicatesOf.delete(b.key);
        throw err;
      }
      for (const i of taken) {
        const key = batchOf[i] as string;
        duplicatesOf.set(key, (duplicatesOf.get(key) ?? 0) + 1);
      }
    },
    { maxBatch: 50 },
  );
  return {
    /**
     * Inserts each record under its own id, unordered, with the batches of other displays: a record sent again (a
     * retry, a resend after going offline) is a duplicate key and counts once. Returns how many were new; any other
     * write error fails the call (the display sends the batch again, and what went in counts once).
     */
    async insertOnce(records: PlayRecordDoc[]): Promise<{ accepted: number; duplicates: number }> {
      if (records.length === 0) return { accepted: 0, duplicates: 0 };
      const key = randomUUID();
      try {
        await writer.add(key, { key, records });
        const duplicates = duplicatesOf.get(key) ?? 0;
        return { accepted: records.length - duplicates, duplicates };
      } finally {
        duplicatesOf.delete(key);
      }
    },
    /** The records of these ids already stored: counted (with their document) or refused. */
    async storedOf(
      ids: string[],
    ): Promise<{ counted: Map<string, PlayRecordDoc>; refused: Map<string, PlayRefusalDoc> }> {
      const [counted, refused] = await Promise.all([
        Promise.all(ids.map((id) => storedPlays.load(id))),
        Promise.all(ids.map((id) => storedRefusals.load(id))),
      ]);
      return {
        counted: new Map(counted.filter((d): d is PlayRecordDoc => d !== undefined).map((d) => [d._id, d])),
        refused: new Map(refused.filter((d): d is PlayRefusalDoc => d !== undefined).map((d) => [d._id, d])),
      };
    },
    /** Stores refused records once each; returns how many were already there (a resend racing this one). */
    async refuseOnce(records: PlayRefusalDoc[]): Promise<{ duplicates: Set<string> }> {
      const duplicates = new Set<string>();
      if (records.length === 0) return { duplicates };
      for (const i of await insertManyOnce(refusals.collection as never, records))
        duplicates.add((records[i] as PlayRefusalDoc)._id);
      return { duplicates };
    },
  };
}
export type PlayRepository = ReturnType<typeof createPlayRepository>;

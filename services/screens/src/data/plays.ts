import type { Models, PlayRecordDoc } from './models';

export interface PlayCountRow {
  day: string;
  screenId: string;
  fileId: string;
  plays: number;
  seconds: number;
}

/** The per-record errors of an unordered insert (the driver's MongoBulkWriteError), or undefined for another error. */
function bulkWriteErrors(err: unknown): Array<{ code: number }> | undefined {
  if (!err || typeof err !== 'object' || !('writeErrors' in err)) return undefined;
  const list = (err as { writeErrors: unknown }).writeErrors;
  const arr = Array.isArray(list) ? list : [list];
  return arr.map((e) => ({ code: Number((e as { code?: unknown }).code) }));
}

export function createPlayRepository(models: Models) {
  const { plays } = models;
  return {
    /**
     * Inserts each record under its own id, the whole batch in one unordered insert (one round trip): a record sent
     * again (a retry, a resend after going offline) is a duplicate key and counts once. Returns how many were new;
     * any other write error fails the call (the display sends the batch again, and what went in counts once).
     */
    async insertOnce(records: PlayRecordDoc[]): Promise<{ accepted: number; duplicates: number }> {
      if (records.length === 0) return { accepted: 0, duplicates: 0 };
      try {
        await plays.collection.insertMany(records as never[], { ordered: false });
        return { accepted: records.length, duplicates: 0 };
      } catch (err) {
        const writeErrors = bulkWriteErrors(err);
        if (!writeErrors || writeErrors.some((e) => e.code !== 11000)) throw err;
        return { accepted: records.length - writeErrors.length, duplicates: writeErrors.length };
      }
    },
    /** Which of these ids are stored already (for refusing a batch that repeats one). */
    existing: async (ids: string[]) =>
      new Set((await plays.find({ _id: { $in: ids } }, { _id: 1 }).lean<{ _id: string }[]>()).map((d) => d._id)),
    /**
     * Plays and seconds per day, screen and file of one owner, days from..to inclusive. Summed here rather than
     * with $group: FerretDB answered 0 for `$sum: '$seconds'` (measured), and the same code must hold on MongoDB.
     */
    async countsForOwner(ownerId: string, from: string, to: string, screenId?: string): Promise<PlayCountRow[]> {
      const match: Record<string, unknown> = { ownerId, day: { $gte: from, $lte: to } };
      if (screenId) match.screenId = screenId;
      const sums = new Map<string, PlayCountRow>();
      const cursor = plays.find(match, { day: 1, screenId: 1, fileId: 1, seconds: 1 }).lean().cursor();
      for await (const doc of cursor as AsyncIterable<Pick<PlayRecordDoc, 'day' | 'screenId' | 'fileId' | 'seconds'>>) {
        const key = `${doc.day}\u0000${doc.screenId}\u0000${doc.fileId}`;
        const row = sums.get(key) ?? { day: doc.day, screenId: doc.screenId, fileId: doc.fileId, plays: 0, seconds: 0 };
        row.plays++;
        row.seconds += doc.seconds;
        sums.set(key, row);
      }
      return [...sums.values()].sort(
        (a, b) =>
          a.day.localeCompare(b.day) || a.screenId.localeCompare(b.screenId) || a.fileId.localeCompare(b.fileId),
      );
    },
    /**
     * A seller's view: plays per day of the files they sold, over every screen but their own, never naming screen
     * or owner (the index { fileId, day } serves it). Summed here, as countsForOwner, not with $group.
     */
    async countsForSold(
      sellerId: string,
      fileIds: string[],
      from: string,
      to: string,
    ): Promise<Array<{ day: string; fileId: string; plays: number }>> {
      if (fileIds.length === 0) return [];
      const sums = new Map<string, { day: string; fileId: string; plays: number }>();
      const cursor = plays
        .find(
          { fileId: { $in: fileIds }, day: { $gte: from, $lte: to }, ownerId: { $ne: sellerId } },
          { day: 1, fileId: 1 },
        )
        .lean()
        .cursor();
      for await (const doc of cursor as AsyncIterable<Pick<PlayRecordDoc, 'day' | 'fileId'>>) {
        const key = `${doc.day}\u0000${doc.fileId}`;
        const row = sums.get(key) ?? { day: doc.day, fileId: doc.fileId, plays: 0 };
        row.plays++;
        sums.set(key, row);
      }
      return [...sums.values()].sort((a, b) => a.day.localeCompare(b.day) || a.fileId.localeCompare(b.fileId));
    },
  };
}
export type PlayRepository = ReturnType<typeof createPlayRepository>;

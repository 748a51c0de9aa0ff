import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Models, PlayRecordDoc } from './models';

export interface PlayCountRow {
  day: string;
  screenId: string;
  fileId: string;
  plays: number;
  seconds: number;
}

export function createPlayRepository(models: Models) {
  const { plays } = models;
  return {
    /**
     * Inserts each record under its own id: a record sent again (a retry, a resend after going offline) is a
     * duplicate key and counts once. Returns how many were new.
     */
    async insertOnce(records: PlayRecordDoc[]): Promise<{ accepted: number; duplicates: number }> {
      let accepted = 0;
      let duplicates = 0;
      for (let i = 0; i < records.length; i += 50) {
        await Promise.all(
          records.slice(i, i + 50).map(async (r) => {
            try {
              await plays.create(r);
              accepted++;
            } catch (err) {
              if (!isDuplicateKeyError(err)) throw err;
              duplicates++;
            }
          }),
        );
      }
      return { accepted, duplicates };
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

// Compaction's reads and writes (use-cases/compact-plays.ts): the raw records past retention, the days' markers
// (`play_compactions`, `_id` = the day: inserted once when the day's rollups are sealed, then marked done once its raw
// records are deleted), and the deletion. Only the compactor (one instance at a time) reads the raw collections by
// day; nothing on a display's or a report's path does.
import { createHash } from 'node:crypto';
import { isDuplicateKeyError } from '@pagecast/service-kit';
import type mongoose from 'mongoose';

export interface RawDayRecord {
  _id: string;
  screenId: string;
  ownerId: string;
  fileId: string;
  day: string;
  seconds: number;
  pageSeconds?: number;
  /** refused records only */
  reason?: string;
}

export interface CompactionMarker {
  /** the day (YYYY-MM-DD, the screens' local days) */
  _id: string;
  /** counted records folded, refused records folded, counted seconds */
  records: number;
  refused: number;
  seconds: number;
  /** SHA-256 (hex) over the sorted ids of every raw record of the day (counted and refused) */
  checksum: string;
  /** rollup documents sealed, and how many of them the raw records corrected */
  rollups: number;
  differing: number;
  sealedAt: Date;
  /** when its raw records were gone (null: sealed, raw records maybe still there) */
  doneAt: Date | null;
}

const checksumOf = (ids: string[]) =>
  createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');

export function createCompactionRepository(conn: mongoose.Connection) {
  const plays = conn.collection<RawDayRecord>('plays');
  const refusals = conn.collection<RawDayRecord>('play_refusals');
  const markers = conn.collection<CompactionMarker>('play_compactions');
  const projection = { _id: 1, screenId: 1, ownerId: 1, fileId: 1, day: 1, seconds: 1, pageSeconds: 1, reason: 1 };
  return {
    /** Every raw record (counted and refused) of the days before `cutoff`, by day. */
    async rawBefore(cutoff: string): Promise<Map<string, RawDayRecord[]>> {
      const byDay = new Map<string, RawDayRecord[]>();
      for (const col of [plays, refusals]) {
        for await (const r of col.find({ day: { $lt: cutoff } }, { projection })) {
          const list = byDay.get(r.day) ?? [];
          list.push(r as RawDayRecord);
          byDay.set(r.day, list);
        }
      }
      return byDay;
    },
    marker: (day: string) => markers.findOne({ _id: day }),
    /** Inserts the day's marker once; a marker already there (another run) wins and is returned. */
    async mark(marker: CompactionMarker): Promise<CompactionMarker> {
      try {
        await markers.insertOne(marker);
        return marker;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        return (await markers.findOne({ _id: marker._id })) as CompactionMarker;
      }
    },
    /**
     * Whether raw records left of a sealed day are not what was sealed: more than sealed, or as many but other ids
     * (checksum). Fewer is a deletion cut short (its remainder is deleted).
     */
    async notSealedIn(_day: string, left: string[], marker: CompactionMarker): Promise<boolean> {
      const sealed = marker.records + marker.refused;
      if (left.length > sealed) return true;
      return left.length === sealed && checksumOf(left) !== marker.checksum;
    },
    async deleteDay(day: string): Promise<void> {
      await plays.deleteMany({ day });
      await refusals.deleteMany({ day });
    },
    async done(day: string): Promise<void> {
      await markers.updateOne({ _id: day }, { $set: { doneAt: new Date() } });
    },
    /** The markers of these days (a proof over compacted days names what was sealed). */
    ofDays: (days: string[]) => markers.find({ _id: { $in: days } }).toArray(),
  };
}
export type CompactionRepository = ReturnType<typeof createCompactionRepository>;

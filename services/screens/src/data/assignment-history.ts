// What each screen was given over time: one document per assignment, inserted once under `<screenId>#<n>` (the
// screen's record holds its newest n), never changed. Read by `_id` (FerretDB scans any other filter), newest first
// until the one in effect at the time a batch needs; entries are immutable, so a process keeps those it read.
// Each entry also holds the opening hours that applied from its time and the screen's zone, so proof of
// play can refuse records made while the screen was closed by the hours in force then.
import type { OpeningHours, ScreenAssignment } from '@pagecast/contracts';
import {
  type ByIdCollection,
  createBatchLoader,
  isDuplicateKeyError,
  LRUCache,
  readByIds,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { AssignmentAt, HoursInForce } from '../domain';

export interface AssignmentHistoryDoc {
  /** `${screenId}#${seq}` */
  _id: string;
  screenId: string;
  seq: number;
  at: Date;
  assignment: ScreenAssignment;
  /** its groups' assignments then, highest precedence first (absent: none) */
  groups?: ScreenAssignment[];
  /** the opening hours that applied from `at`, in `timeZone` (absent: always open, or written before) */
  openingHours?: OpeningHours;
  timeZone?: string;
}

/** The hours that apply to a screen from an entry's time on (settingsOf's openingHours) and its zone. */
export type { HoursInForce };

/** The entry's fields for these hours: none when always open (what an entry without them means). */
const hoursFields = (hours?: HoursInForce) =>
  hours && hours.openingHours !== null ? { openingHours: hours.openingHours, timeZone: hours.timeZone } : {};

const SCREENS_REMEMBERED = 20_000;
/** entries read per command when walking back */
const CHUNK = 10;

const idOf = (screenId: string, seq: number) => `${screenId}#${seq}`;

export function createAssignmentHistory(conn: mongoose.Connection) {
  const col = conn.collection<AssignmentHistoryDoc>('screen_assignments');
  // the screens of a judge group read their entries together (a fleet's first batches after a boot: thousands)
  const entryOf = createBatchLoader<string, AssignmentHistoryDoc>(readByIds(col as unknown as ByIdCollection));
  /** per screen: seq → entry (immutable; null: no entry has that number) */
  const known = new LRUCache<string, Map<number, AssignmentAt | null>>({ max: SCREENS_REMEMBERED });

  const remember = (screenId: string): Map<number, AssignmentAt | null> => {
    let entries = known.get(screenId);
    if (!entries) {
      entries = new Map<number, AssignmentAt | null>();
      known.set(screenId, entries);
    }
    return entries;
  };

  return {
    /** Inserts entry `seq`; false when that number is taken (another change, or one whose screen write failed). */
    async insert(
      screenId: string,
      seq: number,
      at: Date,
      assignment: ScreenAssignment,
      groups?: ScreenAssignment[],
      hours?: HoursInForce,
    ): Promise<boolean> {
      try {
        await col.insertOne({
          _id: idOf(screenId, seq),
          screenId,
          seq,
          at,
          assignment,
          ...(groups && groups.length > 0 ? { groups } : {}),
          ...hoursFields(hours),
        });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    },
    /** Many screens' next entries in one unordered insert; returns the screens whose number was taken. */
    async insertEach(
      entries: Array<{
        screenId: string;
        seq: number;
        at: Date;
        assignment: ScreenAssignment;
        groups?: ScreenAssignment[];
        hours?: HoursInForce;
      }>,
    ): Promise<Set<string>> {
      const taken = new Set<string>();
      if (entries.length === 0) return taken;
      try {
        await col.insertMany(
          entries.map(({ hours, ...e }) => ({ _id: idOf(e.screenId, e.seq), ...e, ...hoursFields(hours) })),
          { ordered: false },
        );
      } catch (err) {
        const writeErrors = (err as { writeErrors?: Array<{ index: number; code?: number; err?: { code?: number } }> })
          .writeErrors;
        if (!writeErrors) throw err;
        for (const w of Array.isArray(writeErrors) ? writeErrors : [writeErrors]) {
          if ((w.code ?? w.err?.code) !== 11000) throw err;
          const e = entries[w.index];
          if (e) taken.add(e.screenId);
        }
      }
      return taken;
    },
    /** Entries 0..latest of a screen, oldest first, from the one in effect at `since` on (older ones are not read). */
    async since(screenId: string, latest: number, since: number): Promise<AssignmentAt[]> {
      const entries = remember(screenId);
      const collect = (low: number) => {
        const out: AssignmentAt[] = [];
        for (let seq = low; seq <= latest; seq++) {
          const e = entries.get(seq);
          if (e) out.push(e);
        }
        return out;
      };
      let low = latest + 1;
      for (;;) {
        while (low > 0 && entries.has(low - 1)) {
          low--;
          const e = entries.get(low);
          if (e && e.at <= since) return collect(low);
        }
        if (low === 0) return collect(0);
        const seqs: number[] = [];
        for (let seq = low - 1; seq >= Math.max(0, low - CHUNK); seq--) seqs.push(seq);
        const docs = await Promise.all(seqs.map((seq) => entryOf.load(idOf(screenId, seq))));
        for (const d of docs) {
          if (!d) continue;
          entries.set(d.seq, {
            at: new Date(d.at).getTime(),
            assignment: d.assignment,
            ...(d.groups ? { groups: d.groups } : {}),
            ...(d.openingHours != null ? { openingHours: d.openingHours, timeZone: d.timeZone } : {}),
          });
        }
        // a number with no entry (never written) stands for nothing
        for (const seq of seqs) if (!entries.has(seq)) entries.set(seq, null);
      }
    },
  };
}
export type AssignmentHistory = ReturnType<typeof createAssignmentHistory>;

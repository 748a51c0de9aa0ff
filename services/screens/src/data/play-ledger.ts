// Each screen's played time: the merged intervals of its counted plays, the records its last batch claimed, and when
// its last batch came. Kept as numbered versions, each INSERTED once under `<screenId>#<rev>` (never updated): the
// insert of version rev + 1 is the compare-and-set, atomic on FerretDB as on MongoDB (an insert under a unique key is
// the one write FerretDB makes atomic; an update is a read then a write there, docs/platform.md). Inserts of many
// screens' batches go together in one command (the kit's group commit); old versions are deleted in small bursts, and
// a head document says roughly where a screen's versions are, for a process that has none in memory.
import {
  type ByIdCollection,
  createBatchLoader,
  createGroupCommit,
  insertManyOnce,
  LRUCache,
  readByIds,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { ClaimedPlay, Interval } from '../domain';

export interface ClaimEntry extends ClaimedPlay {
  id: string;
  /** the record's intake sequence (absent on claims made before the intake stream) */
  q?: number;
}
export interface PlayLedger {
  rev: number;
  played: Interval[];
  /** the records the batch that wrote this version accepted (a resend after a failed insert is accepted as judged) */
  claims: ClaimEntry[];
  lastBatchAt: Date | null;
}
interface LedgerVersionDoc extends PlayLedger {
  /** `${screenId}#${rev}` */
  _id: string;
  screenId: string;
}
interface LedgerHeadDoc {
  /** screenId */
  _id: string;
  /** a version at most a few behind the newest */
  rev: number;
}

const SCREENS_REMEMBERED = 20_000;
/** the head moves, and older versions go, every this many versions */
const HEAD_EVERY = 16;
/** versions kept behind the newest (a reader that found the head a little stale still finds them) */
const KEEP = 4;
/** versions looked for in one read when finding the newest */
const PROBE = 2 * HEAD_EVERY;
const empty = (): PlayLedger => ({ rev: 0, played: [], claims: [], lastBatchAt: null });
const idOf = (screenId: string, rev: number) => `${screenId}#${rev}`;

export function createPlayLedgerRepository(conn: mongoose.Connection) {
  const versions = conn.collection<LedgerVersionDoc>('screen_play_ledgers');
  const heads = conn.collection<LedgerHeadDoc>('screen_play_ledger_heads');
  /** what this process last read or wrote: it is usually the screen's only writer, so a batch need not read it */
  const memory = new LRUCache<string, PlayLedger>({ max: SCREENS_REMEMBERED });
  // a screen's first batch since this process started reads its head and probes its versions: at a fleet's boot
  // (or after a power cut) thousands at once, read in one `$in` per turn instead of two queries per screen
  const headOf = createBatchLoader<string, LedgerHeadDoc>(readByIds(heads as unknown as ByIdCollection));
  const versionOf = createBatchLoader<string, LedgerVersionDoc>(readByIds(versions as unknown as ByIdCollection));
  const chains = new Map<string, Promise<unknown>>();
  /** versions whose insert met one already there (another instance wrote that version first) */
  const lost = new Set<string>();
  const writer = createGroupCommit<LedgerVersionDoc>(
    async (docs) => {
      for (const i of await insertManyOnce(versions, docs)) lost.add((docs[i] as LedgerVersionDoc)._id);
    },
    { maxBatch: 200 },
  );

  /** The newest version at or after `from` (0: the screen has none yet). */
  const newestFrom = async (screenId: string, from: number): Promise<PlayLedger> => {
    let base = from;
    let found: LedgerVersionDoc | undefined;
    for (let round = 0; round < 1000; round++) {
      const ids = Array.from({ length: PROBE }, (_, i) => idOf(screenId, base + i));
      const docs = await Promise.all(ids.map((id) => versionOf.load(id)));
      const newest = docs.reduce<LedgerVersionDoc | undefined>(
        (a, d) => (d && (!a || d.rev > a.rev) ? d : a),
        undefined,
      );
      if (newest) found = newest;
      // the window held the newest unless its last number is taken (or nothing was found past a stale start)
      if (newest ? newest.rev < base + PROBE - 1 : found !== undefined || base === 0) break;
      base += PROBE - (newest ? 1 : 0);
    }
    const ledger = found
      ? { rev: found.rev, played: found.played, claims: found.claims ?? [], lastBatchAt: found.lastBatchAt ?? null }
      : empty();
    memory.set(screenId, ledger);
    return ledger;
  };

  return {
    /** Runs `fn` after the screen's batches already running in this process (one at a time per screen). */
    exclusive<T>(screenId: string, fn: () => Promise<T>): Promise<T> {
      const before = chains.get(screenId) ?? Promise.resolve();
      const run = before.then(fn, fn);
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      chains.set(screenId, settled);
      void settled.then(() => {
        if (chains.get(screenId) === settled) chains.delete(screenId);
      });
      return run;
    },
    /** The newest version as this process knows it (`fresh`: looked up now). */
    async get(screenId: string, fresh = false): Promise<PlayLedger> {
      const known = memory.get(screenId);
      if (known && !fresh) return known;
      const head = await headOf.load(screenId);
      return newestFrom(screenId, Math.max(known?.rev ?? 0, head?.rev ?? 0));
    },
    /**
     * Inserts version rev + 1 (compare-and-set): false when another instance wrote it first (look the ledger up again
     * and judge again).
     */
    async writeIf(screenId: string, rev: number, next: Omit<PlayLedger, 'rev'>): Promise<boolean> {
      const doc: LedgerVersionDoc = { _id: idOf(screenId, rev + 1), screenId, rev: rev + 1, ...next };
      try {
        await writer.add(doc._id, doc);
      } catch (err) {
        memory.delete(screenId);
        throw err;
      }
      if (lost.delete(doc._id)) {
        memory.delete(screenId);
        return false;
      }
      const ledger: PlayLedger = { rev: doc.rev, played: doc.played, claims: doc.claims, lastBatchAt: doc.lastBatchAt };
      memory.set(screenId, ledger);
      if (doc.rev % HEAD_EVERY === 0) {
        // off the batch's way: a failure here only makes a later look-up read a little more
        void (async () => {
          await heads.updateOne({ _id: screenId }, { $max: { rev: doc.rev } }, { upsert: true });
          const old = Array.from({ length: HEAD_EVERY }, (_, i) => idOf(screenId, doc.rev - KEEP - i)).filter(
            (id) => Number(id.slice(id.lastIndexOf('#') + 1)) > 0,
          );
          await versions.deleteMany({ _id: { $in: old } });
        })().catch(() => undefined);
      }
      return true;
    },
  };
}
export type PlayLedgerRepository = ReturnType<typeof createPlayLedgerRepository>;

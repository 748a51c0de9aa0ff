// Per-day rollups of play records: what the owners' and sellers' reports read, by `_id`, whatever the age of the
// history. Written only by the play judge (one instance at a time, in the intake stream's order): each document
// keeps the highest intake sequence it holds (`seq`), and a record's counts are added to it only when the record's
// sequence is higher, so a judge that died after writing some rollups and is followed by another (which judges the
// same messages again from the last checkpoint) adds nothing twice. A document is replaced whole by its one writer:
// no update operator is relied on (FerretDB's updates read then write).
//
// The judge holds the documents it touches in memory for its session and writes them every PLAY_ROLLUP_FLUSH_MS
// (`flush`), not every group: an owner's day is a row per screen and file (a thousand rows for a thousand screens),
// and rewriting it each second was the judge's largest cost. The judge's checkpoint moves only with a flush, so a
// judge that dies with rollups unwritten is followed by one that judges those messages again; it finds their records
// stored and adds them from the stored records (each keeps its intake sequence), above each rollup's sequence only.
// This instance's reads see what it holds unwritten; another instance's see it after the flush.
import type { PlayRefusalReason } from '@pagecast/contracts';
import type mongoose from 'mongoose';
import type { PlayCountRow, RefusedCountRow, SoldCountRow } from './plays';

/**
 * `owner:<ownerId>:<day>`  rows (screenId, fileId): counted records and their seconds (the owner's report)
 * `refused:<ownerId>:<day>` rows (screenId, reason): refused records and the seconds they claimed
 * `file:<fileId>:<day>`    rows (ownerId, ''): plays (countsAsPlay) and counted seconds (a seller's counts)
 * `day` is the screen's local day, as on each record.
 */
export type RollupKind = 'owner' | 'refused' | 'file';

export interface RollupRow {
  a: string;
  b: string;
  /** records (owner, refused) or plays (file) */
  n: number;
  /** seconds */
  s: number;
}

/** What compaction proved when it folded the day's raw records into this rollup and deleted them. */
export interface RollupSeal {
  records: number;
  seconds: number;
  /** SHA-256 (hex) over the sorted ids of the records folded */
  checksum: string;
  at: Date;
}

export interface RollupDoc {
  _id: string;
  kind: RollupKind;
  /** the owner (owner, refused) or the file (file) */
  of: string;
  day: string;
  seq: number;
  rows: RollupRow[];
  sealed?: RollupSeal;
}

/** One record's contribution to one rollup, at its intake sequence. */
export interface RollupDelta {
  kind: RollupKind;
  of: string;
  day: string;
  a: string;
  b: string;
  n: number;
  s: number;
  seq: number;
}

export const rollupId = (kind: RollupKind, of: string, day: string) => `${kind}:${of}:${day}`;
const rowKey = (a: string, b: string) => `${a}\u0000${b}`;
const CHUNK = 1000;

export function createPlayRollups(conn: mongoose.Connection) {
  const col = conn.collection<RollupDoc>('play_rollups');
  /**
   * The judge's documents this session: each as it stands with what it added (`doc`), and the sequence the database
   * holds (`stored`: the compare-and-set of its write; null: not in the database yet).
   */
  const held = new Map<string, { doc: RollupDoc; stored: number | null; dirty: boolean }>();

  const readStored = async (ids: string[]): Promise<RollupDoc[]> => {
    const out: RollupDoc[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      out.push(...(await col.find({ _id: { $in: ids.slice(i, i + CHUNK) } }).toArray()));
    }
    return out;
  };
  /** The documents as this instance knows them: its unwritten ones over the database's. */
  const read = async (ids: string[]): Promise<RollupDoc[]> => {
    const mine = ids.flatMap((id) => {
      const h = held.get(id);
      return h?.dirty ? [structuredClone(h.doc)] : [];
    });
    if (mine.length === 0) return readStored(ids);
    const skip = new Set(mine.map((d) => d._id));
    return [...(await readStored(ids.filter((id) => !skip.has(id)))), ...mine];
  };

  return {
    read,
    /**
     * Adds each delta whose sequence is above its document's `seq`, and moves the touched documents' `seq` to
     * `throughSeq` (every message up to it is judged), in memory: `flush` writes them. Returns how many deltas were
     * added.
     */
    async apply(deltas: RollupDelta[], throughSeq: number): Promise<number> {
      if (deltas.length === 0) return 0;
      const byId = new Map<string, RollupDelta[]>();
      for (const d of deltas) {
        const id = rollupId(d.kind, d.of, d.day);
        const list = byId.get(id) ?? [];
        list.push(d);
        byId.set(id, list);
      }
      const missing = [...byId.keys()].filter((id) => !held.has(id));
      for (const doc of await readStored(missing)) held.set(doc._id, { doc, stored: doc.seq, dirty: false });
      let added = 0;
      for (const [id, list] of byId) {
        const first = list[0] as RollupDelta;
        const h = held.get(id) ?? {
          doc: { _id: id, kind: first.kind, of: first.of, day: first.day, seq: 0, rows: [] },
          stored: null,
          dirty: false,
        };
        held.set(id, h);
        const fresh = list.filter((d) => d.seq > h.doc.seq);
        if (fresh.length === 0) continue;
        const rows = new Map(h.doc.rows.map((r) => [rowKey(r.a, r.b), r]));
        for (const d of fresh) {
          let row = rows.get(rowKey(d.a, d.b));
          if (!row) {
            row = { a: d.a, b: d.b, n: 0, s: 0 };
            rows.set(rowKey(d.a, d.b), row);
            h.doc.rows.push(row);
          }
          row.n += d.n;
          row.s = Math.round((row.s + d.s) * 1000) / 1000;
          added++;
        }
        h.doc.seq = Math.max(throughSeq, h.doc.seq);
        h.dirty = true;
      }
      return added;
    },
    /** Whether documents wait to be written. */
    pending: () => [...held.values()].some((h) => h.dirty),
    /**
     * Writes the documents changed since the last flush (one command). A document changed in the database meanwhile
     * (another judge after a lost lease) is left as it is there and the flush fails: the judge forgets what it holds
     * and judges again from its checkpoint, which adds to each rollup only what it lacks.
     */
    async flush(): Promise<void> {
      const dirty = [...held.values()].filter((h) => h.dirty);
      if (dirty.length === 0) return;
      const snapshot = dirty.map((h) => ({ h, doc: structuredClone(h.doc) }));
      const written = await col.bulkWrite(
        snapshot.map(({ h, doc }) =>
          h.stored !== null
            ? { replaceOne: { filter: { _id: doc._id, seq: h.stored }, replacement: doc } }
            : { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } },
        ),
        { ordered: false },
      );
      if (written.matchedCount + written.upsertedCount < snapshot.length) {
        held.clear();
        throw new Error('play rollups changed by another writer since they were read');
      }
      for (const { h, doc } of snapshot) {
        h.stored = doc.seq;
        if (h.doc.seq === doc.seq) h.dirty = false;
      }
    },
    /** Forgets what this instance holds, written or not (a new session reads the database again). */
    discard(): void {
      held.clear();
    },
    /** The documents of `kind` for `of` over these days (missing days: nothing played). */
    async ofDays(kind: RollupKind, ofIds: string[], days: string[]): Promise<RollupDoc[]> {
      return read(ofIds.flatMap((of) => days.map((day) => rollupId(kind, of, day))));
    },
    /**
     * The owner's report: counted records and seconds per day, screen and file over from..to (one `$in` by `_id` of
     * one document per day, whatever the history's age).
     */
    async ownerCounts(ownerId: string, days: string[], screenId?: string): Promise<PlayCountRow[]> {
      const docs = await read(days.map((day) => rollupId('owner', ownerId, day)));
      return docs
        .flatMap((d) =>
          d.rows
            .filter((r) => !screenId || r.a === screenId)
            .map((r) => ({ day: d.day, screenId: r.a, fileId: r.b, plays: r.n, seconds: r.s })),
        )
        .sort(
          (a, b) =>
            a.day.localeCompare(b.day) || a.screenId.localeCompare(b.screenId) || a.fileId.localeCompare(b.fileId),
        );
    },
    /** The owner's refused records and the seconds they claimed, per day, screen and reason. */
    async refusedCounts(ownerId: string, days: string[], screenId?: string): Promise<RefusedCountRow[]> {
      const docs = await read(days.map((day) => rollupId('refused', ownerId, day)));
      return docs
        .flatMap((d) =>
          d.rows
            .filter((r) => !screenId || r.a === screenId)
            .map((r) => ({
              day: d.day,
              screenId: r.a,
              reason: r.b as PlayRefusalReason,
              records: r.n,
              seconds: r.s,
            })),
        )
        .sort(
          (a, b) =>
            a.day.localeCompare(b.day) || a.screenId.localeCompare(b.screenId) || a.reason.localeCompare(b.reason),
        );
    },
    /**
     * A seller's counts: plays and seconds per day of the files they sold, over every screen but their own, never
     * naming a screen or an owner (one document per file and day).
     */
    async soldCounts(sellerId: string, fileIds: string[], days: string[]): Promise<SoldCountRow[]> {
      if (fileIds.length === 0) return [];
      const docs = await read(fileIds.flatMap((f) => days.map((day) => rollupId('file', f, day))));
      return docs
        .flatMap((d) => {
          const rows = d.rows.filter((r) => r.a !== sellerId);
          if (rows.length === 0) return [];
          const plays = rows.reduce((n, r) => n + r.n, 0);
          const seconds = rows.reduce((n, r) => n + r.s, 0);
          return [{ day: d.day, fileId: d.of, plays, seconds: Math.round(seconds * 1000) / 1000 }];
        })
        .sort((a, b) => a.day.localeCompare(b.day) || a.fileId.localeCompare(b.fileId));
    },
    /** Compaction: the day's rollups as the raw records say, sealed with what proves it (one writer: the compactor). */
    async seal(docs: RollupDoc[]): Promise<void> {
      if (docs.length === 0) return;
      for (const doc of docs) held.delete(doc._id);
      await col.bulkWrite(
        docs.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
        { ordered: false },
      );
    },
  };
}
export type PlayRollups = ReturnType<typeof createPlayRollups>;

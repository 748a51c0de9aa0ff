// Signed proof of play (see the README, "Signed proof of play"): the displays' public keys, one per screen, and the
// signed batches exactly as the displays signed them. Kept apart from plays.ts: these are the evidence a proof file
// is made of, the plays are what the service judged of it.
import { randomUUID } from 'node:crypto';
import {
  type DisplayPublicKey,
  type PlayRecord,
  type PlayRefusalReason,
  type SignatureAlg,
  subjects,
} from '@pagecast/contracts';
import {
  type ByIdCollection,
  createBatchLoader,
  createGroupCommit,
  createMemoryView,
  eventRoutes,
  followEvents,
  insertManyOnce,
  isDuplicateKeyError,
  type Logger,
  LRUCache,
  type Nats,
  readByIds,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';

/**
 * How long an instance holds "no key bound" for a screen without hearing of a binding: the longest an unsigned batch
 * can still be taken after another instance bound a key whose event this one missed (a dropped connection clears
 * them all at once; the binding's event, sent through the outbox, ends the entry on every instance at once).
 */
export const KEY_ABSENT_TTL_MS = 60_000;
/** At most this many screens' "no key" held (the least recently used goes first: it is read again). */
const KEY_ABSENT_MAX = 100_000;

/** A screen's key, bound once (`_id` is the screen's id: the first binding wins, insert-once). */
export interface DisplayKeyDoc {
  _id: string;
  keyId: string;
  alg: SignatureAlg;
  jwk: DisplayPublicKey;
  ownerId: string;
  boundAt: Date;
}

export type Arrival = 'in-order' | 'after-gap' | 'late';

/** A batch as signed (`_id` `<keyId>#<seq>`: a place in the key's chain is taken once). */
export interface SignedBatchDoc {
  _id: string;
  keyId: string;
  seq: number;
  prev: string;
  /** SHA-256 of its signed text: what the next batch names as prev */
  hash: string;
  sentAt: string;
  signature: string;
  /** the records as sent and signed (their five fields, and a video's reached second) */
  records: PlayRecord[];
  screenId: string;
  ownerId: string;
  /** for the proof's query: the files its records name, and the span of their starts */
  fileIds: string[];
  firstStart: Date;
  lastStart: Date;
  receivedAt: Date;
  arrival: Arrival;
}

type Verdict = { counted: number } | { refused: PlayRefusalReason };

/** Where a key's chain stood when last noted (`_id` the key's id): the head is found from here by reads by `_id`. */
interface ChainHeadDoc {
  _id: string;
  seq: number;
}
/** The head's note moves every this many places (and at every place that is not in order: a gap, a late batch). */
const HEAD_EVERY = 16;
/** Places looked for in one read when finding the head from its note. */
const PROBE = 2 * HEAD_EVERY;
/** Keys whose last place stored or found here is held (the least recently used goes first: it is read again). */
const TIPS_MAX = 100_000;

export function createSignedPlayRepository(
  conn: mongoose.Connection,
  /**
   * now: the clock the "no key" entries age on (the service's: the tests move it); insertLingerMs: how long an insert
   * under load waits for the batches behind it (20 ms; the benchmark compares 0)
   */
  opts: { now?: () => number; insertLingerMs?: number } = {},
) {
  const keys = conn.collection<DisplayKeyDoc>('screen_keys');
  const batches = conn.collection<SignedBatchDoc>('play_batches');
  const heads = conn.collection<ChainHeadDoc>('play_batch_heads');
  const plays = conn.collection<{ _id: string; seconds: number; ownerId: string; startedAt: Date }>('plays');
  const refusals = conn.collection<{ _id: string; reason: PlayRefusalReason }>('play_refusals');
  void batches.createIndex({ fileIds: 1, lastStart: 1 }).catch(() => undefined);
  void batches.createIndex({ keyId: 1, seq: 1 }).catch(() => undefined);
  // a key never changes once bound: kept for good once read (a screen unpaired keeps its key, for its proofs)
  const known = new Map<string, DisplayKeyDoc>();
  // "no key bound", per screen: every unsigned batch of a screen without a key asked the database before (another
  // instance may bind one meanwhile); now held KEY_ABSENT_TTL_MS at most and ended by the binding's event. A read
  // that finds a key is not kept here (it goes to `known`); reads of many screens at once are one `$in`.
  const absent = createMemoryView<DisplayKeyDoc>({
    source: keys as unknown as ByIdCollection,
    max: KEY_ABSENT_MAX,
    backstopMs: KEY_ABSENT_TTL_MS,
    keep: (value) => value === null,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const id = (keyId: string, seq: number) => `${keyId}#${seq}`;
  // Every signed batch read its neighbours (three reads by `_id`) and was inserted on its own: four commands per batch
  // on a display's path, about 2 ms of FerretDB each batch. The reads of batches arriving together go in one `$in`,
  // and their inserts in one insertMany (each still its own place, taken once: a duplicate key is that place taken).
  // A fleet's batches do not arrive together but one after another: under load (a write ended less than 20 ms ago)
  // an insert waits 20-40 ms for the batches behind it. 150 batches a second: 0.22 inserts per batch instead of 1,
  // FerretDB 0.61 ms per batch against 1.13 (npm run bench -- "signed inserts"). Alone, a batch is inserted at once.
  const insertLingerMs = opts.insertLingerMs ?? 20;
  const places = createBatchLoader<string, SignedBatchDoc>(
    readByIds<SignedBatchDoc>(batches as unknown as ByIdCollection),
  );
  /** the documents whose place was taken (by another, or by the same batch sent again in the same insert) */
  const taken = new WeakSet<SignedBatchDoc>();
  const writer = createGroupCommit<SignedBatchDoc>(
    async (docs) => {
      for (const i of await insertManyOnce(batches, docs)) taken.add(docs[i] as SignedBatchDoc);
    },
    { maxBatch: 100, lingerMs: insertLingerMs, maxLingerMs: 2 * insertLingerMs },
  );
  // a chain's head is asked at every display's start (its key sent again): the notes, and the places probed from
  // them, of displays starting together are read in one `$in` each (a storm after a power cut is thousands at once)
  const notes = createBatchLoader<string, ChainHeadDoc>(readByIds<ChainHeadDoc>(heads as unknown as ByIdCollection));
  const probes = createBatchLoader<string, { seq: number; hash: string }>(async (ids) => {
    const docs = await batches.find({ _id: { $in: ids } }, { projection: { seq: 1, hash: 1 } }).toArray();
    return new Map(docs.map((d) => [d._id, { seq: d.seq, hash: d.hash }]));
  });
  // Per key, the last place this instance stored or found (a place, once taken, never changes): a display sends a
  // batch only once the one before was answered, so its next batch names this place as its predecessor, and that
  // batch's check needs no read (use-cases/signed-batch.ts).
  const tips = new LRUCache<string, { seq: number; hash: string }>({ max: TIPS_MAX });
  const noteTip = (keyId: string, seq: number, hash: string) => {
    if (seq > (tips.get(keyId)?.seq ?? 0)) tips.set(keyId, { seq, hash });
  };
  const noteHead = (keyId: string, seq: number) =>
    heads.updateOne({ _id: keyId }, { $max: { seq } }, { upsert: true }).then(() => undefined);
  const events = eventRoutes()
    .on(subjects.screenKeyBound, (data) => absent.forget(data.screenId))
    // an unpaired screen's calls are refused before its key is looked at (its record, in the device view)
    .on(subjects.screenRevoked, (data) => {
      known.delete(data.screenId);
      absent.forget(data.screenId);
    });

  /**
   * The screen's key, or null when none is bound yet ("none" from memory for KEY_ABSENT_TTL_MS at most, unless a
   * binding was heard). `fresh`: read the database whatever memory holds (a signed batch about to be refused).
   */
  const keyOf = async (screenId: string, fresh = false): Promise<DisplayKeyDoc | null> => {
    const kept = known.get(screenId);
    if (kept) return kept;
    const doc = await absent.get(screenId, fresh);
    if (doc) known.set(screenId, doc);
    return doc;
  };

  return {
    keyOf,
    /**
     * Binds `key` to the screen unless one is bound: answers the key bound (this one, or the one before), and whether
     * this call bound it (then its caller announces it: screens.key.bound.v1).
     */
    async bind(key: DisplayKeyDoc): Promise<{ bound: DisplayKeyDoc; inserted: boolean }> {
      // a display sends its key at every start, bound long before (at its pairing): that is a read (memory, or one
      // `$in` with the others starting), not an insert refused by its unique key (a write each, on FerretDB's one
      // writer: thousands of them after a power cut)
      const before = await keyOf(key._id);
      if (before) return { bound: before, inserted: false };
      try {
        await keys.insertOne(key);
        // a new key has no batch: its chain's head is found from this note, never by a query over all batches (an
        // insert, not noteHead's upsert: a note already there, of the same key bound before, stands as $max would
        // leave it, and FerretDB's upsert is a read and a write)
        await insertManyOnce(heads, [{ _id: key.keyId, seq: 0 }]);
        known.set(key._id, key);
        absent.forget(key._id);
        return { bound: key, inserted: true };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const bound = await keys.findOne({ _id: key._id });
        if (!bound) throw err;
        known.set(key._id, bound);
        absent.forget(key._id);
        return { bound, inserted: false };
      }
    },
    /** Hears the bindings and unpairings of every instance (a lost connection forgets every "no key"). */
    follow(nats: Nats, logger?: Logger) {
      return followEvents(nats, events, { logger, onGap: () => absent.clear() });
    },
    keysOf: (screenIds: string[]) => keys.find({ _id: { $in: screenIds } }).toArray(),
    batch: async (keyId: string, seq: number) => (await places.load(id(keyId, seq))) ?? null,
    /** The last place of the key this instance stored or found (undefined: none held). */
    tip: (keyId: string) => tips.get(keyId),
    /** A place of the key found taken by the batch that took it (a resend answered). */
    noteTip,
    /**
     * Where the key's chain stands: its highest place stored. Found from the head's note by reads by `_id` (a
     * query by keyId sorted by seq reads every batch ever kept on FerretDB, which indexes only `_id`: 257 ms a call
     * at 2,000 batches, and a display asks at every start). Past the note the places are contiguous: a batch out of
     * order moves the note before it is answered. A key bound before the notes is looked up once the old way.
     */
    async head(keyId: string): Promise<{ seq: number; hash: string }> {
      let note = await notes.load(keyId);
      if (!note) {
        const [top] = await batches
          .find({ keyId }, { projection: { seq: 1, hash: 1 } })
          .sort({ seq: -1 })
          .limit(1)
          .toArray();
        await noteHead(keyId, top?.seq ?? 0);
        note = { _id: keyId, seq: top?.seq ?? 0 };
      }
      let top: { seq: number; hash: string } = { seq: 0, hash: '' };
      let from = Math.max(1, note.seq);
      for (let round = 0; round < 1_000_000; round++) {
        const docs = await Promise.all(Array.from({ length: PROBE }, (_, i) => probes.load(id(keyId, from + i))));
        for (const d of docs) if (d && d.seq > top.seq) top = d;
        if (top.seq < from + PROBE - 1) break;
        from = top.seq;
      }
      if (top.seq > 0) noteTip(keyId, top.seq, top.hash);
      return top;
    },
    /** How many inserts of batches ran (tests: batches of many displays go together). */
    insertWrites: () => writer.writes,
    /** Stores the batch in its place: false when that place was taken (by this batch before, or another). */
    async insert(doc: SignedBatchDoc): Promise<boolean> {
      // its own key in the group (two calls for one place both reach the insert; one of them finds it taken)
      await writer.add(randomUUID(), doc);
      if (taken.has(doc)) return false;
      noteTip(doc.keyId, doc.seq, doc.hash);
      // out of order, before it is answered (head() counts on the places after its note being contiguous); else now
      // and then, off the batch's way (a note a little behind costs head() one more read)
      if (doc.arrival !== 'in-order') await noteHead(doc.keyId, doc.seq);
      else if (doc.seq % HEAD_EVERY === 0) void noteHead(doc.keyId, doc.seq).catch(() => undefined);
      return true;
    },
    /** Batches holding records of `fileId` that start in [from, to), of one owner or of everyone but one. */
    withFile: (fileId: string, from: Date, to: Date, owner: { ownerId: string } | { notOwnerId: string }) =>
      batches
        .find({
          fileIds: fileId,
          lastStart: { $gte: from },
          firstStart: { $lt: to },
          ownerId: 'ownerId' in owner ? owner.ownerId : { $ne: owner.notOwnerId },
        })
        .toArray(),
    /** The key's batches from place `from` to `to`, in order. */
    range: (keyId: string, from: number, to: number) =>
      batches
        .find({ keyId, seq: { $gte: from, $lte: to } })
        .sort({ seq: 1 })
        .toArray(),
    /** What the service made of these records: the seconds counted, or the reason refused. */
    async verdicts(ids: string[]): Promise<Map<string, Verdict>> {
      const out = new Map<string, Verdict>();
      for (let i = 0; i < ids.length; i += 1000) {
        const part = ids.slice(i, i + 1000);
        const [counted, refused] = await Promise.all([
          plays.find({ _id: { $in: part } }, { projection: { seconds: 1 } }).toArray(),
          refusals.find({ _id: { $in: part } }, { projection: { reason: 1 } }).toArray(),
        ]);
        for (const d of counted) out.set(d._id, { counted: d.seconds });
        for (const d of refused) out.set(d._id, { refused: d.reason });
      }
      return out;
    },
    /** Counted plays of the file that started in [from, to) (the report's days around them, then by start). */
    async countedOfFile(
      fileId: string,
      days: { from: string; to: string },
      from: Date,
      to: Date,
      owner: { ownerId: string } | { notOwnerId: string },
    ): Promise<string[]> {
      const rows = await plays
        .find(
          {
            fileId,
            day: { $gte: days.from, $lte: days.to },
            ownerId: 'ownerId' in owner ? owner.ownerId : { $ne: owner.notOwnerId },
          } as never,
          { projection: { startedAt: 1 } },
        )
        .toArray();
      return rows.filter((r) => r.startedAt >= from && r.startedAt < to).map((r) => r._id);
    },
  };
}
export type SignedPlayRepository = ReturnType<typeof createSignedPlayRepository>;

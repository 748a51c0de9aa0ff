// Signed proof of play (see the README, "Signed proof of play"): the displays' public keys, one per screen, and the
// signed batches exactly as the displays signed them. Kept apart from plays.ts: these are the evidence a proof file
// is made of, the plays are what the service judged of it.
import {
  type DisplayPublicKey,
  type PlayRecord,
  type PlayRefusalReason,
  type SignatureAlg,
  subjects,
} from '@pagecast/contracts';
import {
  type ByIdCollection,
  createMemoryView,
  eventRoutes,
  followEvents,
  isDuplicateKeyError,
  type Logger,
  type Nats,
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

export function createSignedPlayRepository(
  conn: mongoose.Connection,
  /** now: the clock the "no key" entries age on (the service's: the tests move it) */
  opts: { now?: () => number } = {},
) {
  const keys = conn.collection<DisplayKeyDoc>('screen_keys');
  const batches = conn.collection<SignedBatchDoc>('play_batches');
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
  const events = eventRoutes()
    .on(subjects.screenKeyBound, (data) => absent.forget(data.screenId))
    // an unpaired screen's calls are refused before its key is looked at (its record, in the device view)
    .on(subjects.screenRevoked, (data) => {
      known.delete(data.screenId);
      absent.forget(data.screenId);
    });

  return {
    /**
     * The screen's key, or null when none is bound yet ("none" from memory for KEY_ABSENT_TTL_MS at most, unless a
     * binding was heard). `fresh`: read the database whatever memory holds (a signed batch about to be refused).
     */
    async keyOf(screenId: string, fresh = false): Promise<DisplayKeyDoc | null> {
      const kept = known.get(screenId);
      if (kept) return kept;
      const doc = await absent.get(screenId, fresh);
      if (doc) known.set(screenId, doc);
      return doc;
    },
    /**
     * Binds `key` to the screen unless one is bound: answers the key bound (this one, or the one before), and whether
     * this call bound it (then its caller announces it: screens.key.bound.v1).
     */
    async bind(key: DisplayKeyDoc): Promise<{ bound: DisplayKeyDoc; inserted: boolean }> {
      try {
        await keys.insertOne(key);
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
    batch: (keyId: string, seq: number) => batches.findOne({ _id: id(keyId, seq) }),
    /** Where the key's chain stands: its highest place stored. */
    async head(keyId: string): Promise<{ seq: number; hash: string }> {
      const [top] = await batches
        .find({ keyId }, { projection: { seq: 1, hash: 1 } })
        .sort({ seq: -1 })
        .limit(1)
        .toArray();
      return top ? { seq: top.seq, hash: top.hash } : { seq: 0, hash: '' };
    },
    /** Stores the batch in its place: false when that place was taken (by this batch before, or another). */
    async insert(doc: SignedBatchDoc): Promise<boolean> {
      try {
        await batches.insertOne(doc);
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
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

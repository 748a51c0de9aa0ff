import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

/**
 * One failed attempt, counted for several keys at once (a login: its account, its address, the pair of both), or a
 * lift (`kind: 'lift'`): the keys' failures until `at` no longer count (a successful login, a password reset).
 * Nothing else is written: a successful login with nothing to lift, a refused one and an unverified address leave no
 * record.
 */
interface FailureRecord {
  _id: string;
  keys: string[];
  at: Date;
  expire: Date;
  kind?: 'lift';
}

const failureSchema = new mongoose.Schema<FailureRecord>(
  {
    _id: { type: String, required: true },
    keys: { type: [String], required: true },
    at: { type: Date, required: true },
    expire: { type: Date, required: true },
    kind: { type: String, enum: ['lift'] },
  },
  { collection: 'rate_limit_attempts', versionKey: false },
);
failureSchema.index({ at: 1 });
failureSchema.index({ expire: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('RateLimitAttempt', failureSchema);
type FailureModel = ReturnType<typeof defineModel>;

/** How old this replica's copy of every replica's failures may be before an attempt reads them again. */
export const FAILURES_REFRESH_MS = 5000;
/** A copy older than this many intervals is not used: the attempt waits for the read (see begin). */
const STALE_AFTER_INTERVALS = 3;

/** What one key holds when an attempt begins. */
export interface KeyCount {
  /** times (ms) of its failures in the window and after its last lift, oldest first */
  failures: number[];
  /** other attempts on it being checked on this replica now */
  checking: number;
}

export interface Attempt {
  /** per key, in the order given: failures in the window plus attempts being checked, this one included */
  counts: number[];
  /** per key, in the order given: what the counts are made of */
  keys: KeyCount[];
  /** seconds until key i counts one fewer (its oldest failure leaves the window; 1 when only checks are running) */
  retryAfterSeconds(i: number): number;
  /** Ends the attempt. A failure is stored (every replica counts it) before this resolves; anything else is
   * forgotten. Call it exactly once. */
  end(outcome: 'failed' | 'forgotten'): Promise<void>;
}

interface Failure {
  id: string;
  keys: string[];
  at: number;
  lift?: boolean;
}

/**
 * Sliding-window counters for guesses, where successful logins cost nothing: a login is the hash and its session,
 * not four database commands (each costs FerretDB about 0.6 ms of CPU, taken from the hashes on the same cores).
 *
 * - Attempts being checked are counted in memory, before the password is checked: the count and the increment
 *   happen with no await between them, so parallel guesses on one replica cannot slip past a limit.
 * - Failures are stored, one insert each, and every replica counts them: its copy of the window is read again when
 *   older than `refreshMs`, in the background of the attempt that finds it so (one read at a time), and a restart
 *   reads it before its first answer. An attempt waits for the read only when the copy is older than three
 *   intervals (the reads before failed).
 *
 * The price is exactness across replicas: with R account replicas, guesses landing on different replicas within
 * `refreshMs` of each other are each checked against what their replica knows, so an account or an address gets at
 * most R times its limit per window, where a shared counter read on every attempt gives exactly its limit. Failures
 * from any replica are counted everywhere within `refreshMs` and one read.
 *
 * A lift (`lift`) is stored and read the same way: its replica forgets the keys' earlier failures at once, the others
 * within `refreshMs` and one read.
 */
export function createRateLimitRepository(conn: mongoose.Connection, opts: { refreshMs?: number } = {}) {
  const model = (conn.models.RateLimitAttempt as FailureModel | undefined) ?? defineModel(conn);
  const refreshMs = opts.refreshMs ?? FAILURES_REFRESH_MS;
  // The longest window asked for so far: how far back a refresh reads.
  let windowMs = 0;
  let byKey = new Map<string, Failure[]>();
  /** per key, the time of its newest lift within the window */
  let liftedAt = new Map<string, number>();
  /** failures and lifts this replica stored within the window: kept across refreshes that started before they landed */
  let own: Failure[] = [];
  const checking = new Map<string, number>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  const file = (into: Map<string, Failure[]>, lifts: Map<string, number>, f: Failure) => {
    for (const k of f.keys) {
      if (f.lift) {
        lifts.set(k, Math.max(lifts.get(k) ?? Number.NEGATIVE_INFINITY, f.at));
        continue;
      }
      const list = into.get(k);
      if (list) list.push(f);
      else into.set(k, [f]);
    }
  };

  async function refresh(now: number): Promise<void> {
    const rows = await model
      .find({ at: { $gt: new Date(now - windowMs) } }, { keys: 1, at: 1, kind: 1 })
      .lean<Array<Pick<FailureRecord, '_id' | 'keys' | 'at' | 'kind'>>>();
    own = own.filter((f) => f.at > Date.now() - windowMs);
    const all = new Map<string, Failure>();
    for (const r of rows)
      all.set(r._id, { id: r._id, keys: r.keys ?? [], at: r.at.getTime(), lift: r.kind === 'lift' });
    for (const f of own) all.set(f.id, f);
    const next = new Map<string, Failure[]>();
    const lifts = new Map<string, number>();
    for (const f of all.values()) file(next, lifts, f);
    byKey = next;
    liftedAt = lifts;
    readAt = now;
  }

  /** Reads every replica's failures when the copy is older than refreshMs; concurrent callers share one read. */
  function fresh(now: number): Promise<void> | undefined {
    if (now - readAt < refreshMs) return undefined;
    reading ??= refresh(now).finally(() => {
      reading = undefined;
    });
    return reading;
  }

  /** The key's failures in the window ending at `now` and after its newest lift. */
  const counted = (key: string, window: number, now: number): Failure[] => {
    const since = Math.max(now - window, liftedAt.get(key) ?? Number.NEGATIVE_INFINITY);
    return (byKey.get(key) ?? []).filter((f) => f.at > since);
  };

  const change = (keys: string[], by: number) => {
    for (const k of keys) {
      const n = (checking.get(k) ?? 0) + by;
      if (n > 0) checking.set(k, n);
      else checking.delete(k);
    }
  };

  return {
    model,
    /** Counts an attempt on `keys` within the sliding `window` (ms). */
    async begin(keys: string[], window: number): Promise<Attempt> {
      windowMs = Math.max(windowMs, window);
      const started = Date.now();
      const reread = fresh(started);
      // A copy that is merely due is read again behind this attempt, which goes on with it: waiting made every
      // login that arrived during the read (a scan, slow while the hashes hold the cores) wait too, once per
      // interval. Without a copy (a start), or with one that several reads in a row failed to renew, it waits.
      if (reread && started - readAt >= refreshMs * STALE_AFTER_INTERVALS) await reread;
      else reread?.catch(() => undefined); // renewed by the next attempt
      // From here to the increment, no await: the count this attempt sees includes every attempt before it.
      const now = Date.now();
      const inWindow = keys.map((k) => counted(k, window, now));
      const counts = keys.map((k, i) => (inWindow[i]?.length ?? 0) + (checking.get(k) ?? 0) + 1);
      const state = keys.map((k, i) => ({
        failures: (inWindow[i] ?? []).map((f) => f.at).sort((a, b) => a - b),
        checking: checking.get(k) ?? 0,
      }));
      change(keys, 1);
      let ended = false;
      return {
        counts,
        keys: state,
        // The oldest failure of the window decides when the next attempt is counted.
        retryAfterSeconds: (i) => {
          const oldest = Math.min(...(inWindow[i] ?? []).map((f) => f.at));
          return Number.isFinite(oldest) ? Math.max(1, Math.ceil((oldest + window - now) / 1000)) : 1;
        },
        async end(outcome) {
          if (ended) return;
          ended = true;
          change(keys, -1);
          if (outcome !== 'failed') return;
          const at = Date.now();
          const failure: Failure = { id: randomUUID(), keys, at };
          // Counted here at once: the attempts that follow on this replica see it before it is stored.
          own.push(failure);
          file(byKey, liftedAt, failure);
          await model.collection.insertOne({
            _id: failure.id,
            keys,
            at: new Date(at),
            expire: new Date(at + window),
          } as never);
        },
      };
    },
    /**
     * Lifts the keys: their failures until now no longer count, here at once and on every replica within refreshMs.
     * Stored only when this replica's copy holds a failure of one of them in the window, unless `always` (a password
     * reset: another replica's failures of the last refreshMs may not be here yet). True when a lift was stored.
     */
    async lift(keys: string[], window: number, opts: { always?: boolean } = {}): Promise<boolean> {
      windowMs = Math.max(windowMs, window);
      const at = Date.now();
      if (!opts.always && keys.every((k) => counted(k, window, at).length === 0)) return false;
      const lift: Failure = { id: randomUUID(), keys, at, lift: true };
      own.push(lift);
      file(byKey, liftedAt, lift);
      await model.collection.insertOne({
        _id: lift.id,
        keys,
        at: new Date(at),
        expire: new Date(at + window),
        kind: 'lift',
      } as never);
      return true;
    },
    async sweepExpired(now = new Date()): Promise<number> {
      const res = await model.deleteMany({ expire: { $lte: now } });
      return res.deletedCount;
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;

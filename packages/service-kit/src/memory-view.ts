import { LRUCache } from 'lru-cache';
import { type ByIdCollection, createBatchLoader, readByIds } from './batch-loader';
import { createRecentChanges } from './recent-changes';

/**
 * A change heard for one entry: pure and idempotent (applying it twice changes nothing more). `replayed`: applied
 * again on top of a read, which may already hold it or later ones.
 */
export type Reducer<T> = (value: T | null, replayed: boolean) => T | null;

export interface MemoryViewOptions<T> {
  /** Where a miss reads: a collection (read by `_id`, batched: the kit's batch loader) or a function of one id. */
  source: ByIdCollection | ((id: string) => Promise<T | null | undefined>);
  /** At most this many entries (the least recently used goes first). */
  max: number;
  /**
   * The backstop: an entry read longer ago than this is read again, before it is answered (`refresh: 'before'`, the
   * default) or behind the answer (`'behind'`: one read per entry and period). It bounds what a message lost
   * without a gap could leave wrong; it is not how a change travels.
   */
  backstopMs: number;
  refresh?: 'before' | 'behind';
  /**
   * The changes heard (`hear`) are kept this long per id and applied again on top of every later read: the
   * database's writer (one durable consumer) may lag what a plain subscription hears, so read-then-changes is right
   * whatever order the read and the write ran in. At most `maxIds` ids.
   */
  replay?: { windowMs: number; maxIds: number };
  /** Whether a value read is kept (default: all, absent ones too); one not kept is answered, and read again. */
  keep?(value: T | null): boolean;
  /** Every change of what is held for an id (kept, replaced, heard, forgotten, evicted): for indexes built beside. */
  onChange?(id: string, before: T | null, after: T | null, evicted: boolean): void;
  /** The backstop's clock (ms; tests move it). */
  now?: () => number;
}

interface Entry<T> {
  value: T | null;
  /** the sequence number of the read (or write) it came from */
  seq: number;
}

/**
 * One in-memory read model, held on every instance: what was read by id (a miss reads, batched), kept current by what
 * the instance hears (`hear`: a reducer, on the entry and again on later reads) or re-reads (`read`), bounded, and
 * dropped whole after a gap (`clear`). One staleness rule: every read and write takes a sequence number when it
 * starts, and a value is kept only if no later read or write, forget or clear came before it landed; so a slow read
 * never overwrites a newer one, nor brings back what was forgotten while it ran.
 */
export function createMemoryView<T>(opts: MemoryViewOptions<T>) {
  const behind = opts.refresh === 'behind';
  const loader =
    typeof opts.source === 'function'
      ? undefined
      : createBatchLoader<string, T>(readByIds(opts.source) as (ids: string[]) => Promise<Map<string, T>>);
  const load = typeof opts.source === 'function' ? opts.source : (id: string) => loader?.load(id);
  const entries = new LRUCache<string, Entry<T>>({
    // bounded by a count of 1 per entry, not by `max`: with `max` lru-cache allocates every slot up front (the device
    // view's 3 tables of 100,000 held 12 MB before their first screen, doubling its bytes per screen at 10,000)
    maxSize: opts.max,
    sizeCalculation: () => 1,
    ttl: opts.backstopMs,
    // past the backstop an entry stays held: answered behind a re-read, or read again before (a miss by then)
    allowStale: true,
    noDeleteOnStaleGet: true,
    // lru-cache reads a start of 0 as "no time to live": a test clock at 0 is moved by 1 (ages are differences)
    ...(opts.now ? { perf: { now: () => (opts.now?.() ?? 0) + 1 }, ttlResolution: 0 } : {}),
    dispose: (entry, id, reason) => {
      if (reason === 'evict') opts.onChange?.(id, entry.value, null, true);
    },
  });
  const recent = opts.replay ? createRecentChanges<Reducer<T>>(opts.replay) : undefined;
  let seq = 0;
  /** no read that started before this is kept (a clear) */
  let clearedAt = 0;
  /** per id forgotten while reads of it ran: no read of it that started before is kept */
  const forgottenAt = new Map<string, number>();
  /** reads running per id (what `forgottenAt` must remember for) */
  const running = new Map<string, number>();
  let reading = 0;

  const replay = (id: string, value: T | null): T | null => {
    let out = value;
    if (recent) for (const apply of recent.of(id)) out = apply(out, true);
    return out;
  };

  /** Keeps `value` for `id` as of sequence `at` unless something later is held or came meanwhile. */
  const set = (id: string, value: T | null, at = ++seq): boolean => {
    if (at <= clearedAt || at <= (forgottenAt.get(id) ?? 0)) return false;
    const held = entries.peek(id);
    if (held && held.seq > at) return false;
    if (opts.keep && !opts.keep(value)) return false;
    entries.set(id, { value, seq: at });
    opts.onChange?.(id, held?.value ?? null, value, false);
    return true;
  };

  /** Forgets what is held for `id` from before sequence `before`, and any read of it that started before. */
  const forget = (id: string, before = ++seq): void => {
    if (running.has(id)) forgottenAt.set(id, Math.max(before, forgottenAt.get(id) ?? 0));
    const held = entries.peek(id);
    if (!held || held.seq >= before) return;
    entries.delete(id);
    opts.onChange?.(id, held.value, null, false);
  };

  /** Reads these ids now (batched), keeps what it may; a failed read forgets them and throws. */
  const read = async (ids: readonly string[]): Promise<Map<string, T | null>> => {
    const at = ++seq;
    const unique = [...new Set(ids)];
    const found = new Map<string, T | null>();
    reading++;
    for (const id of unique) running.set(id, (running.get(id) ?? 0) + 1);
    try {
      const values = await Promise.all(unique.map((id) => load(id)));
      unique.forEach((id, i) => {
        const value = replay(id, values[i] ?? null);
        found.set(id, value);
        set(id, value, at);
      });
    } catch (err) {
      // what was held may be from before the change this read was for: a miss reads it again
      for (const id of unique) forget(id, at);
      throw err;
    } finally {
      reading--;
      for (const id of unique) {
        const n = (running.get(id) ?? 1) - 1;
        if (n > 0) running.set(id, n);
        else {
          running.delete(id);
          forgottenAt.delete(id);
        }
      }
    }
    return found;
  };

  // a hit within the backstop is one lookup (the path every display's call takes); one past it is found by a peek
  const withinBackstop = { allowStale: false } as const;
  const evenPast = { allowStale: true } as const;

  const get = async (id: string, fresh = false): Promise<T | null> => {
    if (!fresh) {
      const hit = entries.get(id, withinBackstop);
      if (hit) return hit.value;
      const entry = behind ? entries.peek(id, evenPast) : undefined;
      if (entry) {
        entries.set(id, entry); // its backstop starts again: one read behind per entry and period
        read([id]).catch(() => {});
        return entry.value;
      }
    }
    return (await read([id])).get(id) ?? null;
  };

  return {
    get,
    /** The values of these ids that exist (a miss, or all when `fresh`, read together). */
    async many(ids: readonly string[], fresh = false): Promise<Map<string, T>> {
      const out = new Map<string, T>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = fresh ? undefined : entries.get(id, withinBackstop);
        const stale = hit || fresh || !behind ? undefined : entries.peek(id, evenPast);
        const entry = hit ?? stale;
        if (entry) {
          if (entry.value !== null) out.set(id, entry.value);
          if (stale) void get(id); // read behind
        } else missing.push(id);
      }
      if (missing.length > 0) for (const [id, value] of await read(missing)) if (value !== null) out.set(id, value);
      return out;
    },
    read,
    /** What is held for `id` within its backstop, without a read: undefined when nothing is (a miss). */
    held: (id: string): T | null | undefined => entries.get(id, withinBackstop)?.value,
    /** What is held for `id` (past the backstop too), without a read: undefined when nothing is. */
    peek: (id: string): T | null | undefined => entries.peek(id, evenPast)?.value,
    set,
    forget,
    /** A change heard (an event, or this instance's write): applied to the entry if held, and to later reads. */
    hear(id: string, apply: Reducer<T>): void {
      recent?.add(id, apply);
      const entry = entries.peek(id);
      if (!entry) return;
      const before = entry.value;
      entry.value = apply(before, false);
      opts.onChange?.(id, before, entry.value, false);
    },
    /** Forgets everything (a gap: events may have been missed); no read running now is kept. */
    clear(): void {
      clearedAt = ++seq;
      if (opts.onChange) for (const [id, e] of entries.entries()) opts.onChange(id, e.value, null, false);
      entries.clear();
    },
    /** A new sequence number (a scan takes one at its start and keeps what it finds with it). */
    next: (): number => ++seq,
    /** Forgets every entry no read or write since sequence `since` confirmed (after a full scan: what is gone). */
    dropOlderThan(since: number): void {
      for (const [id, e] of [...entries.entries()]) if (e.seq < since) forget(id, since);
    },
    /** Every held value with its id (past the backstop too). */
    *values(): IterableIterator<[string, T | null]> {
      for (const [id, e] of entries.entries()) yield [id, e.value];
    },
    /** How many entries are held. */
    get size(): number {
      return entries.size;
    },
    /** Reads running now (tests wait for none before they count queries). */
    get reading(): number {
      return reading;
    },
    /** Queries made by `_id` (a collection source: one per batch; figures and tests). */
    get reads(): number {
      return loader?.reads ?? 0;
    },
  };
}
export type MemoryView<T> = ReturnType<typeof createMemoryView<T>>;

import { LRUCache } from 'lru-cache';

/**
 * The changes heard per id in the last `windowMs` (real time), in the order heard: what an in-memory view applies again
 * on top of every database read (docs/read-models.md, rule 1). The database's writer (one durable consumer) may lag
 * what a plain subscription hears, so read-then-changes is right whatever order the read and the write ran in, as long
 * as the changes are idempotent. An id whose last change left the window is gone; at most `maxIds` ids are kept (the
 * least recently heard go first).
 */
export function createRecentChanges<C>(opts: { windowMs: number; maxIds: number; now?: () => number }) {
  const now = opts.now ?? (() => performance.now());
  const heard = new LRUCache<string, Array<{ at: number; change: C }>>({
    maxSize: opts.maxIds, // a count, without the slots `max` allocates up front (memory-view.ts)
    sizeCalculation: () => 1,
    ttl: opts.windowMs,
    ttlResolution: 0,
    // lru-cache reads a start of 0 as "no time to live": a test clock at 0 is moved by 1 (ages are differences)
    perf: { now: () => now() + 1 },
  });
  /** the changes of one id still in the window (an id's entry lives as long as its last change does) */
  const inWindow = (changes: Array<{ at: number; change: C }>, t: number) =>
    changes.filter((c) => t - c.at <= opts.windowMs);
  return {
    add(id: string, change: C): void {
      const t = now();
      heard.set(id, [...inWindow(heard.get(id) ?? [], t), { at: t, change }]);
    },
    /** The id's changes heard in the window, oldest first. */
    of(id: string): C[] {
      const changes = heard.get(id, { updateAgeOnGet: false });
      return changes ? inWindow(changes, now()).map((c) => c.change) : [];
    },
    /** how many ids have changes in the window (tests) */
    get size(): number {
      let n = 0;
      for (const _ of heard.keys()) n++;
      return n;
    },
  };
}
export type RecentChanges<C> = ReturnType<typeof createRecentChanges<C>>;

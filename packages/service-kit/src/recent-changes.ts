import { setNewest } from './bounded-map';

/**
 * The changes heard per id in the last `windowMs` (real time), in the order heard: what an in-memory view applies
 * again on top of every database read (docs/read-models.md, rule 1). The database's writer (one durable consumer)
 * may lag what a plain subscription hears, so read-then-changes is right whatever order the read and the write ran
 * in, as long as the changes are idempotent. Ids whose last change left the window are dropped as others are heard;
 * at most `maxIds` ids are kept (the ones heard longest ago go first).
 */
export function createRecentChanges<C>(opts: { windowMs: number; maxIds: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const heard = new Map<string, { last: number; changes: Array<{ at: number; change: C }> }>();
  /** the id's changes still in the window (and the id forgotten when none is) */
  const live = (id: string, t: number): C[] => {
    const h = heard.get(id);
    if (!h) return [];
    const kept = h.changes.filter((c) => t - c.at <= opts.windowMs);
    if (kept.length === 0) {
      heard.delete(id);
      return [];
    }
    h.changes = kept;
    return kept.map((c) => c.change);
  };
  return {
    add(id: string, change: C): void {
      const t = now();
      const h = heard.get(id);
      const changes = h ? h.changes.filter((c) => t - c.at <= opts.windowMs) : [];
      changes.push({ at: t, change });
      setNewest(heard, id, { last: t, changes }, opts.maxIds);
      // the map is in the order ids were last heard: those heard longest ago go once out of the window
      for (const [oldId, old] of heard) {
        if (t - old.last <= opts.windowMs) break;
        heard.delete(oldId);
      }
    },
    /** The id's changes heard in the window, oldest first. */
    of(id: string): C[] {
      return live(id, now());
    },
    /** how many ids have changes held (tests) */
    get size(): number {
      return heard.size;
    },
  };
}
export type RecentChanges<C> = ReturnType<typeof createRecentChanges<C>>;

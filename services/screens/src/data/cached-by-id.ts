import { DUPLICATE_WINDOW_MS } from '@pagecast/contracts';
import {
  type ByIdCollection,
  createBatchLoader,
  createRecentChanges,
  readByIds,
  setNewest,
} from '@pagecast/service-kit';

/** A change heard for one document: a pure, idempotent reducer (applying it twice changes nothing more). */
export type Reducer<D> = (doc: D | null) => D | null;

/** At most this many ids whose recent events are kept (far above what the window sees: events are rare). */
const HEARD_MAX = 100_000;

/**
 * One read model held in memory on every instance (docs/read-models.md, rule 1): what was read by `_id` (the ids
 * one batch asks for, and those other batches ask for meanwhile, go in one `$in` command: the kit's batch loader)
 * plus every change heard since, applied on top as an idempotent reducer (`hear`: the followed event, on every
 * instance, and this instance's own durable write). The database's writer (one durable consumer) may lag what a
 * plain subscription hears, so the changes heard in the last DUPLICATE_WINDOW_MS are kept per id and applied again
 * on top of any later read: read-then-events is right whatever the order in which the read and the write ran.
 *
 * `maxAgeMs` is a backstop, not how a change travels: an entry older than it is read again (what a lost message could
 * leave wrong is bounded by it). `fresh` reads past the memory (before a record is refused for what a read model
 * says). `drop` forgets every entry (a gap in what was heard); a read that a drop overtook is not kept.
 * At most `max` entries (the oldest read goes first).
 */
export function createCachedById<D extends { _id: string }>(
  collection: ByIdCollection,
  opts: { maxAgeMs: number; max: number },
) {
  const loader = createBatchLoader<string, D>(readByIds<D>(collection));
  const memory = new Map<string, { doc: D | null; at: number }>();
  /** per id, the changes heard in the window (real time: the window is the durable writer's lag) */
  const heard = createRecentChanges<Reducer<D>>({ windowMs: DUPLICATE_WINDOW_MS, maxIds: HEARD_MAX });
  let generation = 0;

  const replay = (id: string, doc: D | null) => {
    let out = doc;
    for (const apply of heard.of(id)) out = apply(out);
    return out;
  };

  return {
    async many(ids: string[], now: number, fresh = false): Promise<Map<string, D>> {
      const found = new Map<string, D>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = fresh ? undefined : memory.get(id);
        if (hit && now - hit.at <= opts.maxAgeMs) {
          if (hit.doc) found.set(id, hit.doc);
        } else missing.push(id);
      }
      if (missing.length === 0) return found;
      const before = generation;
      const read = await Promise.all(missing.map((id) => loader.load(id)));
      missing.forEach((id, i) => {
        // what was heard meanwhile (or before, while the writer had not written it yet) goes on top
        const doc = replay(id, read[i] ?? null);
        if (doc) found.set(id, doc);
        if (generation === before) setNewest(memory, id, { doc, at: now }, opts.max);
      });
      return found;
    },
    /** A change heard (an event, or this instance's write): applied to the entry if held, and kept for later reads. */
    hear(id: string, apply: Reducer<D>): void {
      heard.add(id, apply);
      const held = memory.get(id);
      if (held) memory.set(id, { doc: apply(held.doc), at: held.at });
    },
    /** Forgets every entry (a gap: events may have been missed); the changes heard stay for later reads. */
    drop(): void {
      generation++;
      memory.clear();
    },
    /** how many reads of the database this view made (figures and tests) */
    get reads(): number {
      return loader.reads;
    },
    get size(): number {
      return memory.size;
    },
  };
}

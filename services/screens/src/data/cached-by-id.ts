import { type ByIdCollection, createBatchLoader, readByIds, setNewest } from '@pagecast/service-kit';

/** How many documents of one read model a process remembers (the oldest read goes first). */
const CACHE_MAX = 50_000;

/**
 * Reads of a read model by `_id`, remembered for `ttlMs`: a play batch needs the same few files, playlists and
 * licences again and again, and every filter but `_id` scans the collection on FerretDB. The ids one batch asks for,
 * and those other batches ask for meanwhile, go in one `$in` command (the kit's batch loader). `fresh` reads past the
 * memory (before a record is refused for what a read model says). A write made here forgets the entry at once, and
 * a read that such a write overtook is not remembered; a write made by another instance shows within `ttlMs`.
 */
export function createCachedById<D extends { _id: string }>(collection: ByIdCollection, ttlMs: number) {
  const loader = createBatchLoader<string, D>(readByIds<D>(collection));
  const memory = new Map<string, { doc: D | null; at: number }>();
  let writes = 0;
  return {
    async many(ids: string[], now: number, fresh = false): Promise<Map<string, D>> {
      const found = new Map<string, D>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = fresh ? undefined : memory.get(id);
        if (hit && now - hit.at <= ttlMs) {
          if (hit.doc) found.set(id, hit.doc);
        } else missing.push(id);
      }
      const before = writes;
      const read = await Promise.all(missing.map((id) => loader.load(id)));
      missing.forEach((id, i) => {
        const doc = read[i] ?? null;
        if (doc) found.set(id, doc);
        if (writes === before) setNewest(memory, id, { doc, at: now }, CACHE_MAX);
      });
      return found;
    },
    forget(id: string): void {
      writes++;
      memory.delete(id);
    },
  };
}

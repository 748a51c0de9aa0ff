/**
 * Batched reads: callers `load(key)`; the keys asked while a read runs are read together in the next one (one query
 * with `$in` instead of one per caller). Same rhythm as the group commit: no timer, so a lone caller waits for one
 * round trip, and a burst (ten thousand screens asking for the same playlist's pages) costs a few queries.
 * A read starts at the end of the event loop's turn (setImmediate), not at the first load: requests that arrived
 * together are handled one I/O callback each, so their keys meet only there.
 * Keys asked twice in one batch share the answer. A failed read rejects the callers of that batch only.
 */
export interface BatchLoader<K, V> {
  load(key: K): Promise<V | undefined>;
  /** how many reads ran (figures and tests) */
  readonly reads: number;
}

export function createBatchLoader<K, V>(
  readMany: (keys: K[]) => Promise<Map<K, V>>,
  opts: { maxBatch?: number } = {},
): BatchLoader<K, V> {
  const maxBatch = opts.maxBatch ?? 500;
  const queued = new Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (err: unknown) => void }>>();
  let running = false;
  let scheduled = false;
  let reads = 0;

  const drain = async () => {
    if (running) return;
    running = true;
    try {
      while (queued.size > 0) {
        const batch = new Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (err: unknown) => void }>>();
        for (const [key, waiters] of queued) {
          if (batch.size >= maxBatch) break;
          batch.set(key, waiters);
        }
        for (const key of batch.keys()) queued.delete(key);
        reads++;
        try {
          const found = await readMany([...batch.keys()]);
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        } catch (err) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      running = false;
    }
  };

  return {
    load(key) {
      return new Promise<V | undefined>((resolve, reject) => {
        const waiters = queued.get(key);
        if (waiters) waiters.push({ resolve, reject });
        else queued.set(key, [{ resolve, reject }]);
        if (running || scheduled) return;
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void drain();
        });
      });
    },
    get reads() {
      return reads;
    },
  };
}

/** What readByIds needs of a collection: the driver's own (mongoose's `model.collection`, `conn.collection(name)`). */
export interface ByIdCollection {
  findOne(filter: { _id: string }): Promise<unknown>;
  find(filter: { _id: { $in: string[] } }): { toArray(): Promise<unknown[]> };
}

/**
 * A batch loader's read by `_id`: one query for the whole batch (`_id: { $in }`), a plain `findOne` for one id. Both
 * are searches of the `_id` index on MongoDB and on the FerretDB the project builds (its patch pc4: upstream FerretDB
 * 1.24 scans the table for an `$in`, and for an `_id` equality too without pc1). One command instead of one per id:
 * each costs the database a wake-up and a round of decoding whatever it holds, and the caller an event-loop turn.
 */
export function readByIds<V extends { _id: string }>(
  collection: ByIdCollection,
): (ids: string[]) => Promise<Map<string, V>> {
  return async (ids) => {
    const docs =
      ids.length === 1
        ? [await collection.findOne({ _id: ids[0] as string })]
        : await collection.find({ _id: { $in: ids } }).toArray();
    const found = new Map<string, V>();
    for (const doc of docs as Array<V | null>) if (doc) found.set(doc._id, doc);
    return found;
  };
}

/**
 * Write-behind for soft state: `put` records an item in memory and returns at once; one write at a time stores what
 * was put, the newest item per key, several keys per write. For state that the next report replaces anyway (a
 * display's heartbeat every interval), where making every caller wait for the database costs a round trip each and
 * losing the last few items in a crash costs nothing: the next report restores them.
 *
 * Readers in this process see their own writes (`pending`) before they reach the database. A failed write keeps its
 * items (unless a newer one for the key arrived meanwhile) and tries again after `retryMs`; `flush` (shutdown) waits
 * until everything put is stored or a write fails.
 */
export interface WriteBehind<T> {
  put(key: string, item: T): void;
  /** the item put for this key and not yet stored, if any */
  pending(key: string): T | undefined;
  /** every item put and not yet stored */
  pendingItems(): T[];
  /** stores everything put so far; rejects if a write fails */
  flush(): Promise<void>;
  /** how many writes ran (figures and tests) */
  readonly writes: number;
}

export function createWriteBehind<T>(
  write: (items: T[]) => Promise<void>,
  opts: { maxBatch?: number; retryMs?: number; onError?: (err: unknown, items: number) => void } = {},
): WriteBehind<T> {
  const maxBatch = opts.maxBatch ?? 500;
  const retryMs = opts.retryMs ?? 1_000;
  const queued = new Map<string, T>();
  const inFlight = new Map<string, T>();
  let running: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let writes = 0;

  /** One write of up to maxBatch items; on failure they go back to the queue (behind any newer item). */
  const runOnce = async (): Promise<void> => {
    for (const [key, item] of queued) {
      if (inFlight.size >= maxBatch) break;
      inFlight.set(key, item);
      queued.delete(key);
    }
    writes++;
    try {
      await write([...inFlight.values()]);
    } catch (err) {
      for (const [key, item] of inFlight) if (!queued.has(key)) queued.set(key, item);
      throw err;
    } finally {
      inFlight.clear();
    }
  };

  const drain = (): Promise<void> => {
    running ??= (async () => {
      try {
        while (queued.size > 0) await runOnce();
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  /** Starts a drain unless one runs or a retry waits (no hammering a database that is down). */
  const start = () => {
    if (running || retry) return;
    drain().catch((err) => {
      opts.onError?.(err, queued.size);
      retry = setTimeout(() => {
        retry = undefined;
        start();
      }, retryMs);
      retry.unref();
    });
  };

  return {
    put(key, item) {
      queued.set(key, item);
      start();
    },
    pending: (key) => queued.get(key) ?? inFlight.get(key),
    pendingItems: () => [...new Map([...inFlight, ...queued]).values()],
    async flush() {
      if (retry) {
        clearTimeout(retry);
        retry = undefined;
      }
      while (running || queued.size > 0) await drain();
    },
    get writes() {
      return writes;
    },
  };
}

/**
 * Group commit: callers add items and wait until the write that holds them has finished. One write runs at a time;
 * items that arrive meanwhile wait and go together in the next one. At low load each item is written at once (no
 * timer, no added delay); under load many callers share one round trip, so the database sees one write per
 * round-trip time instead of one per caller. Items with the same key coalesce (the last one wins): a screen that
 * reports twice before the write needs only its newest state written.
 *
 * A failed write rejects every caller whose item it held; nothing is retried here (the caller decides).
 */
export interface GroupCommit<T> {
  add(key: string, item: T): Promise<void>;
  /** waits for every write in flight and every item already added */
  flush(): Promise<void>;
  /** how many writes ran (figures and tests) */
  readonly writes: number;
}

interface Pending<T> {
  item: T;
  waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
}

export function createGroupCommit<T>(
  write: (items: T[]) => Promise<void>,
  opts: {
    maxBatch?: number;
    /**
     * Under load only, a write waits this long for more items first: fewer and fuller writes. Load is what
     * `moreComing` says when given (the caller knows that other items are on their way), else a write that ended
     * less than `lingerMs` ago. At low load an item is still written at once.
     */
    lingerMs?: number;
    /**
     * True when more items will soon be added (work in progress that ends in an add). Without it, one caller adding
     * again and again just after each write (a member's logins one after another) would wait `lingerMs` each time.
     */
    moreComing?: () => boolean;
    /**
     * The longest a lingering write waits (default `lingerMs`). Past `lingerMs`, the next add starts it at once (or a
     * full batch does); only a quiet spell waits for the timer. Under load the adds are the clock: a timer that fires
     * is a run of the event loop of its own, on a core the work is short of (the account's session writes: about 8%
     * less of its main thread's CPU per login, npm run bench -- login, scratch runs taking turns).
     */
    maxLingerMs?: number;
  } = {},
): GroupCommit<T> {
  const maxBatch = opts.maxBatch ?? 500;
  const lingerMs = opts.lingerMs ?? 0;
  const maxLingerMs = Math.max(lingerMs, opts.maxLingerMs ?? lingerMs);
  const queued = new Map<string, Pending<T>>();
  let running: Promise<void> | undefined;
  let writes = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  /** while a write lingers: ends the wait if lingerMs has passed or the batch is full (each add asks) */
  let lingerCheck: (() => void) | undefined;

  const linger = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const end = () => {
        clearTimeout(timer);
        lingerCheck = undefined;
        resolve();
      };
      const timer = setTimeout(end, maxLingerMs);
      // a full batch ends the wait in either case; an add past lingerMs only when the wait may run longer
      lingerCheck = () => {
        if (queued.size >= maxBatch || (maxLingerMs > lingerMs && performance.now() - started >= lingerMs)) end();
      };
    });

  const runOnce = async (): Promise<void> => {
    const loaded = opts.moreComing ? opts.moreComing() : performance.now() - lastEnd < lingerMs;
    if (lingerMs > 0 && queued.size < maxBatch && loaded) await linger();
    const batch = new Map<string, Pending<T>>();
    for (const [key, pending] of queued) {
      if (batch.size >= maxBatch) break;
      batch.set(key, pending);
    }
    for (const key of batch.keys()) queued.delete(key);
    writes++;
    try {
      await write([...batch.values()].map((p) => p.item));
      for (const p of batch.values()) for (const w of p.waiters) w.resolve();
    } catch (err) {
      for (const p of batch.values()) for (const w of p.waiters) w.reject(err);
    }
    lastEnd = performance.now();
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

  return {
    add(key, item) {
      return new Promise<void>((resolve, reject) => {
        const existing = queued.get(key);
        if (existing) {
          existing.item = item;
          existing.waiters.push({ resolve, reject });
        } else {
          queued.set(key, { item, waiters: [{ resolve, reject }] });
        }
        void drain();
        lingerCheck?.();
      });
    },
    async flush() {
      while (running || queued.size > 0) await drain();
    },
    get writes() {
      return writes;
    },
  };
}

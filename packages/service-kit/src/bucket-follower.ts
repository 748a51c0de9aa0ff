import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { pino } from 'pino';
import type { Nats } from './nats';
import { followStream } from './stream-follower';

export type { KvWatchEntry };

export interface BucketFollower {
  /**
   * Resolves once the values the bucket held when the watch began are applied (at once for an empty bucket), or
   * after `readyWithinMs` at the latest (logged with what it still waits for): a watch that never catches up (it
   * should) does not hold its readers forever.
   */
  ready: Promise<void>;
  /** Ends the watch: no entry is applied after this. */
  stop(): Promise<void>;
  /** Resolves when the loop has ended (after `stop`, or once the connection is closed). */
  done: Promise<void>;
}

/** How long `ready` waits for the bucket's values at most, by default. */
export const BUCKET_READY_WITHIN_MS = 10_000;

/**
 * Follows every key of a JetStream key-value bucket into memory: `onEntry` hears its last values first, then each put
 * and delete, in revision order. After a failure (the bucket not there yet, the connection lost, the watch ended)
 * the watch begins again after the last revision seen, so no change is missed, after a wait that
 * grows with each failure in a row, with jitter (`followStream`), each logged with what it waits for. The loop ends
 * on `stop` or once the connection is closed.
 *
 * `open` binds (or creates) the bucket, at each attempt: a bucket another service creates may come later. An entry
 * whose `onEntry` throws fails the attempt and is not heard again (the next watch begins after it).
 */
export function followBucket(opts: {
  nats: Nats;
  bucket: string;
  open: () => Promise<KV>;
  onEntry: (entry: KvWatchEntry) => void;
  /** its name in the log ("workspace memberships") */
  name: string;
  logger?: pino.Logger;
  readyWithinMs?: number;
  /** the level of a failure's line (default warn: the loop recovers) */
  level?: 'error' | 'warn' | 'debug';
  minMs?: number;
  maxMs?: number;
  random?: () => number;
}): BucketFollower {
  const { nats, bucket, logger } = opts;
  const waitingFor = `NATS (the watch of the bucket ${bucket})`;
  let ready = false;
  let markReady!: () => void;
  const readyPromise = new Promise<void>((resolve) => {
    markReady = () => {
      ready = true;
      resolve();
    };
  });
  let seen = 0;
  let lastAtStart = Number.POSITIVE_INFINITY;
  const readyWithinMs = opts.readyWithinMs ?? BUCKET_READY_WITHIN_MS;
  const bound = setTimeout(() => {
    if (ready) return;
    logger?.warn(
      { bucket, seen, lastAtStart: Number.isFinite(lastAtStart) ? lastAtStart : null },
      `${opts.name}: not caught up within ${(readyWithinMs / 1000).toFixed(1)} s, still waiting for ${waitingFor}; going on with what it holds`,
    );
    markReady();
  }, readyWithinMs);
  bound.unref();
  void readyPromise.then(() => clearTimeout(bound));

  let stopped = false;
  let current: { stop(): void } | undefined;
  const follower = followStream(
    async (live) => {
      const kv = await opts.open();
      if (!ready) {
        // what "caught up" means: the stream's last sequence when this attempt began (a revision is a sequence)
        const { state } = await nats.jsm.streams.info(`KV_${bucket}`);
        lastAtStart = state.last_seq;
        if (state.messages === 0 || seen >= lastAtStart) markReady();
      }
      const watch = await kv.watch(seen > 0 ? { resumeFromRevision: seen + 1 } : {});
      current = watch;
      if (stopped) watch.stop();
      live();
      for await (const e of watch) {
        seen = Math.max(seen, e.revision);
        opts.onEntry(e);
        if (e.isUpdate || seen >= lastAtStart) markReady();
      }
    },
    {
      name: opts.name,
      waitingFor,
      logger,
      level: opts.level ?? 'warn',
      minMs: opts.minMs,
      maxMs: opts.maxMs,
      random: opts.random,
      active: () => !nats.nc.isClosed(),
    },
  );
  return {
    ready: readyPromise,
    async stop() {
      stopped = true;
      clearTimeout(bound);
      follower.stop();
      current?.stop();
    },
    done: follower.done,
  };
}

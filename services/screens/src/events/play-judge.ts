// The play judge: reads the intake stream in order, from the last checkpoint, one instance at a time (a lease in
// fleet_leases, on real time), and hands each group of messages to the judging use case. No acknowledgements: the
// checkpoint is the judge's position, written after what it names is stored, so a judge that dies is followed by
// another that reads on from there (what it judges twice is stored once and counted once: use-cases/judge-plays.ts).
import { followStream } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { backfillRollups } from '../use-cases/compact-plays';
import { judgePlays } from '../use-cases/judge-plays';

/** A judge holds its lease this long at most; a killed judge's successor starts at most this much later. */
const LEASE_MS = 30_000;
/** The lease of the one-time pass making rollups of the records stored before them. */
const BACKFILL_LEASE_MS = 60 * 60_000;
/** Then it lets go (and normally takes it again at once), leaving a margin for its last group. */
const SESSION_MS = 20_000;
/** How often an instance without the lease asks for it. */
const WAIT_MS = 1_000;
/** Messages judged together (their records' reads and writes go in shared commands). */
const GROUP_MAX = 500;
/**
 * The stream is purged at most this often, up to the checkpoint of the purge before: a message stays there at
 * least this long after it was judged (to look at, or to judge again by hand).
 */
const PURGE_EVERY_MS = 60_000;

/** The one-time pass making rollups of what was stored before them (a claim in screen_migrations). */
export const ROLLUPS_MIGRATION = 'play-rollups-v1';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIMEOUT = Symbol('timeout');
/** What the judge reads of a stream message. */
interface JsMsg {
  seq: number;
  data: Uint8Array;
}

export interface PlayJudge {
  stop(): Promise<void>;
}

export function startPlayJudge(ctx: ServiceContext): PlayJudge {
  const { intake, leases } = ctx.data;
  const gatherMs = ctx.config.PLAY_JUDGE_GATHER_MS;
  const flushMs = ctx.config.PLAY_ROLLUP_FLUSH_MS;
  /** the stream quiet this long: what is judged is written (the loop also looks at the clock this often) */
  const quietMs = Math.min(250, Math.max(gatherMs, 10));
  const { rollups } = ctx.data;
  const leaseId = `play-judge:${intake.stream}`;
  let stopped = false;
  let lastPurge = Date.now();
  let purgeMark = 0;

  const session = async (live: () => void) => {
    // the records stored before rollups existed are folded into them once, under a lease long enough for a scan of
    // the raw records (no other judge stores anything meanwhile)
    const backfill = !(await ctx.data.migrations.get(ROLLUPS_MIGRATION));
    const leaseMs = backfill ? BACKFILL_LEASE_MS : LEASE_MS;
    const lease = await leases.claim(leaseId, { expire: new Date(Date.now() + leaseMs), now: new Date() });
    live();
    if (!lease) {
      await pause(WAIT_MS);
      return;
    }
    const until = Date.now() + SESSION_MS;
    // what another judge wrote since this one last held the lease is read again
    rollups.discard();
    try {
      const { first, last } = await intake.bounds();
      const checkpoint = await intake.checkpoint();
      // a checkpoint past the stream's end: the stream was made anew (its server's storage lost), read it all
      let storedThrough = checkpoint === null || checkpoint > last ? first - 1 : checkpoint;
      // the checkpoint moves with the rollups' flush: up to it, records and rollups are written
      let flushedThrough = storedThrough;
      let lastFlush = Date.now();
      const flush = async () => {
        if (storedThrough === flushedThrough) return;
        await rollups.flush();
        await intake.setCheckpoint(storedThrough, new Date());
        flushedThrough = storedThrough;
        lastFlush = Date.now();
      };
      if (backfill) {
        if (!(await ctx.data.migrations.get(ROLLUPS_MIGRATION))) {
          const written = await backfillRollups(ctx, storedThrough);
          await ctx.data.migrations.claim(ROLLUPS_MIGRATION);
          if (written > 0) ctx.logger.info({ written }, 'play rollups made from the records stored before them');
        }
        return;
      }
      const consumer = await ctx.nats.js.consumers.get(intake.stream, {
        deliver_policy: 'by_start_sequence' as never,
        opt_start_seq: Math.max(1, storedThrough + 1),
      });
      const messages = await consumer.consume({ max_messages: 2 * GROUP_MAX });
      const it = messages[Symbol.asyncIterator]();
      let next: Promise<IteratorResult<JsMsg>> | null = null;
      // (the consumer's messages, read as the stream holds them)
      try {
        while (!stopped && Date.now() < until) {
          next ??= it.next();
          const raced = await Promise.race([next, pause(quietMs).then(() => TIMEOUT)]);
          if (typeof raced === 'symbol') {
            // nothing more for now: what is judged is written at once
            await flush();
            continue;
          }
          const head = raced as IteratorResult<JsMsg>;
          next = null;
          if (head.done) break;
          const group: JsMsg[] = [head.value];
          // what arrives within gatherMs goes with it (or up to GROUP_MAX): a group's reads and writes are per
          // group, the owner's day rollup (a row per screen and file) is read and rewritten once per group, so at
          // ten thousand displays a group a second, not one per batch as it comes
          const gathered =
            gatherMs > 0
              ? pause(gatherMs).then(() => TIMEOUT)
              : new Promise<typeof TIMEOUT>((r) => setImmediate(() => r(TIMEOUT)));
          while (group.length < GROUP_MAX) {
            next = it.next();
            const more = await Promise.race([next, gathered]);
            if (more === TIMEOUT) break;
            next = null;
            if ((more as IteratorResult<JsMsg>).done) break;
            group.push((more as IteratorResult<JsMsg>).value);
          }
          const fresh = group.filter((m) => m.seq > storedThrough);
          if (fresh.length === 0) continue;
          const decoded = fresh.flatMap((m) => {
            try {
              return [intake.decode(m.seq, m.data)];
            } catch (err) {
              // not one of ours (a message published by hand): skipped, or it would stop the judge for good
              ctx.logger.error({ err, seq: m.seq }, 'play intake: a message that is not a record, skipped');
              return [];
            }
          });
          await judgePlays(ctx, decoded, storedThrough);
          storedThrough = Math.max(...fresh.map((m) => m.seq));
          if (Date.now() - lastFlush >= flushMs) await flush();
          if (Date.now() - lastPurge > PURGE_EVERY_MS) {
            lastPurge = Date.now();
            if (purgeMark > 0) await intake.purgeThrough(purgeMark).catch(() => undefined);
            purgeMark = flushedThrough;
          }
        }
        await flush();
      } finally {
        // (closing waits for the pull in flight, which a pending read may hold open: not waited for long)
        await Promise.race([messages.close().catch(() => undefined), pause(1000)]);
      }
    } finally {
      // unwritten rollups (a failed write) are forgotten: the next session judges again from the checkpoint
      rollups.discard();
      await leases.release(lease).catch(() => undefined);
    }
  };

  const loop = followStream(session, {
    logger: ctx.logger,
    name: 'play judge',
    waitingFor: 'the play intake stream and the database',
    active: () => !stopped,
  });
  return {
    async stop() {
      stopped = true;
      loop.stop();
      await loop.done;
    },
  };
}

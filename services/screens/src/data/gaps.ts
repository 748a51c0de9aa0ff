// When each display was out of contact (no heartbeat and no play batch for longer than SCREEN_OFFLINE_AFTER_SECONDS):
// one push per reconnection to the screen's document (read by _id), so its records of that time may show what it
// last received. Two instances that see the same reconnection push it twice: read as one.
import {
  type ByIdCollection,
  createBatchLoader,
  isDuplicateKeyError,
  LRUCache,
  readByIds,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { OfflineGap } from '../domain';

export interface GapsDoc {
  /** screenId */
  _id: string;
  gaps: Array<{ from: Date; to: Date }>;
}

/** A screen's document is rewritten without the gaps no record can fall in once it holds this many. */
const GAPS_BEFORE_PRUNE = 200;
const SCREENS_REMEMBERED = 20_000;
/** a gap another instance recorded shows here within this (and at once before a record is refused) */
const CACHE_MS = 60_000;

export function createGapRepository(conn: mongoose.Connection, opts: { maxAgeMs: number }) {
  const col = conn.collection<GapsDoc>('screen_gaps');
  /** the service's clock as of the last call (tests move it): the memory's ages are in it */
  let clock = 0;
  const memory = new LRUCache<string, OfflineGap[]>({
    max: SCREENS_REMEMBERED,
    ttl: CACHE_MS,
    ttlResolution: 0,
    perf: { now: () => clock },
  });

  // the screens of a judge group read together (a fleet's first batches after a boot: thousands at once)
  const gapsOf = createBatchLoader<string, GapsDoc>(readByIds(col as unknown as ByIdCollection));

  const normalise = (doc: GapsDoc | null): OfflineGap[] => {
    const byFrom = new Map<number, OfflineGap>();
    for (const g of doc?.gaps ?? []) {
      const from = new Date(g.from).getTime();
      const to = new Date(g.to).getTime();
      byFrom.set(from, { from, to: Math.max(to, byFrom.get(from)?.to ?? to) });
    }
    return [...byFrom.values()].sort((a, b) => a.from - b.from);
  };

  return {
    async of(screenId: string, now: number, fresh = false): Promise<OfflineGap[]> {
      clock = now;
      const hit = fresh ? undefined : memory.get(screenId);
      if (hit) return hit;
      const gaps = normalise((await gapsOf.load(screenId)) ?? null);
      memory.set(screenId, gaps, { start: now });
      return gaps;
    },
    async record(screenId: string, gap: OfflineGap, now: number): Promise<void> {
      memory.delete(screenId);
      const entry = { from: new Date(gap.from), to: new Date(gap.to) };
      const push = () => col.updateOne({ _id: screenId }, { $push: { gaps: entry } }, { upsert: true });
      try {
        await push();
      } catch (err) {
        // two first gaps of one screen at once: the loser's upsert met the winner's insert
        if (!isDuplicateKeyError(err)) throw err;
        await push();
      }
      const doc = await col.findOne({ _id: screenId });
      const gaps = normalise(doc);
      if (doc && doc.gaps.length > GAPS_BEFORE_PRUNE) {
        const kept = gaps.filter((g) => g.to >= now - opts.maxAgeMs);
        if (kept.length < doc.gaps.length) {
          await col.updateOne(
            { _id: screenId },
            { $set: { gaps: kept.map((g) => ({ from: new Date(g.from), to: new Date(g.to) })) } },
          );
        }
      }
      clock = now;
      memory.set(screenId, gaps, { start: now });
    },
  };
}
export type GapRepository = ReturnType<typeof createGapRepository>;

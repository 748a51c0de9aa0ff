// Compaction: raw play records (counted and refused) are kept PLAY_RETENTION_DAYS (a dispute's time), then folded
// into the day's rollups and deleted, so what the service holds grows with the retention, not with the years. A day
// is compacted in three steps, each safe to repeat: (1) its raw records are folded per rollup (the raw records are
// the truth: a rollup that differs is replaced by their sum, and the difference logged), and each rollup is sealed
// with its record count, seconds and a SHA-256 over its records' ids; the day's marker is inserted (its totals and
// the checksum over all its ids); (2) the raw records are deleted; (3) the marker says done. A crash after (1)
// leaves the rollups sealed and every raw record in place (both whole): the next run finds the marker, checks that
// the raw records still there are exactly the ones sealed (count and checksum), and deletes them. A crash in the
// middle of (2) leaves fewer raw records than sealed: the next run deletes the rest, never folding them again.
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context';
import type { CompactionMarker, RawDayRecord } from '../data/play-compaction';
import { type RollupDoc, type RollupKind, type RollupRow, rollupId } from '../data/play-rollups';
import { countsAsPlay } from '../domain';

const DAY_MS = 86_400_000;

/** Where a crash is simulated (tests) or provoked (failpoints: the process dies there). */
export type CompactionCrashPoint = 'after-seal' | 'after-delete';

export interface CompactionResult {
  days: string[];
  records: number;
}

const checksumOf = (ids: string[]) =>
  createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');
const round = (s: number) => Math.round(s * 1000) / 1000;

/** The last day whose records are kept raw at `now`: older days are compacted. */
export function retentionCutoff(now: number, retentionDays: number): string {
  return new Date(now - retentionDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Compacts every day before the cutoff that still has raw records (one instance at a time: the caller's lease).
 * `crash` (tests) is called at each crash point; a throw there stops the run as a dying process would.
 */
export async function compactPlays(
  ctx: ServiceContext,
  opts: { now?: number; crash?: (point: CompactionCrashPoint) => void } = {},
): Promise<CompactionResult> {
  const now = opts.now ?? ctx.clock.ms();
  const cutoff = retentionCutoff(now, ctx.config.PLAY_RETENTION_DAYS);
  const { compaction } = ctx.data;
  const crash = (point: CompactionCrashPoint) => {
    ctx.failpoints.hit(point === 'after-seal' ? 'screens.compaction-after-seal' : 'screens.compaction-after-delete');
    opts.crash?.(point);
  };
  // one read of what is past retention (off every display's and report's path), grouped by day
  const byDay = await compaction.rawBefore(cutoff);
  const result: CompactionResult = { days: [], records: 0 };
  for (const day of [...byDay.keys()].sort()) {
    const raw = byDay.get(day) as RawDayRecord[];
    let marker = await compaction.marker(day);
    if (!marker) {
      marker = await sealDay(ctx, day, raw, now);
    } else {
      // a run that died after sealing: what is left must be records it sealed, nothing new
      const left = raw.map((r) => r._id);
      const unsealed = await compaction.notSealedIn(day, left, marker);
      if (unsealed) {
        ctx.logger.error({ day, left: left.length, sealed: marker.records }, 'compaction: raw records not sealed');
        continue;
      }
    }
    crash('after-seal');
    await compaction.deleteDay(day);
    crash('after-delete');
    await compaction.done(day);
    result.days.push(day);
    result.records += marker.records + marker.refused;
  }
  return result;
}

type Fold = { kind: RollupKind; of: string; rows: Map<string, RollupRow>; ids: string[] };

/** The rollups of one day's raw records, as the judge would have made them, with the ids each holds. */
function foldDay(day: string, raw: RawDayRecord[]) {
  const docs = new Map<string, Fold>();
  const add = (kind: RollupKind, of: string, a: string, b: string, n: number, s: number, id: string) => {
    const key = rollupId(kind, of, day);
    const doc: Fold = docs.get(key) ?? { kind, of, rows: new Map(), ids: [] };
    const row = doc.rows.get(`${a}\u0000${b}`) ?? { a, b, n: 0, s: 0 };
    row.n += n;
    row.s = round(row.s + s);
    doc.rows.set(`${a}\u0000${b}`, row);
    doc.ids.push(id);
    docs.set(key, doc);
  };
  let records = 0;
  let refused = 0;
  let seconds = 0;
  for (const r of raw) {
    if (r.reason) {
      refused++;
      add('refused', r.ownerId, r.screenId, r.reason, 1, r.seconds, r._id);
      continue;
    }
    records++;
    seconds += r.seconds;
    add('owner', r.ownerId, r.screenId, r.fileId, 1, r.seconds, r._id);
    add('file', r.fileId, r.ownerId, '', countsAsPlay(r.seconds, r.pageSeconds) ? 1 : 0, r.seconds, r._id);
  }
  return { docs, records, refused, seconds };
}

const rowsOf = (d: Fold) => [...d.rows.values()].sort((x, y) => x.a.localeCompare(y.a) || x.b.localeCompare(y.b));

/**
 * Once per deployment, by the judge before it reads the stream (so no record is stored meanwhile): the rollups of
 * every raw record stored before rollups existed, at the judge's checkpoint. Records a previous version stored
 * during the rollout, after this ran, are in no rollup until their day is compacted (compaction folds the raw truth).
 */
export async function backfillRollups(ctx: ServiceContext, storedThrough: number): Promise<number> {
  const byDay = await ctx.data.compaction.rawBefore('9999-12-31');
  let written = 0;
  for (const [day, raw] of byDay) {
    const { docs } = foldDay(day, raw);
    const sealed = new Map(
      (await ctx.data.rollups.read([...docs.keys()])).filter((d) => d.sealed).map((d) => [d._id, d]),
    );
    const fresh: RollupDoc[] = [...docs]
      .filter(([id]) => !sealed.has(id))
      .map(([id, d]) => ({ _id: id, kind: d.kind, of: d.of, day, seq: storedThrough, rows: rowsOf(d) }));
    await ctx.data.rollups.seal(fresh);
    written += fresh.length;
  }
  return written;
}

async function sealDay(ctx: ServiceContext, day: string, raw: RawDayRecord[], now: number) {
  const { docs, records, refused, seconds } = foldDay(day, raw);
  const existing = new Map((await ctx.data.rollups.read([...docs.keys()])).map((d) => [d._id, d]));
  const at = new Date(now);
  const sealed: RollupDoc[] = [];
  let differing = 0;
  for (const [id, d] of docs) {
    const rows = rowsOf(d);
    const before = existing.get(id);
    const sum = (list: RollupRow[]) =>
      `${list.reduce((n, r) => n + r.n, 0)}/${round(list.reduce((n, r) => n + r.s, 0))}`;
    if (!before || sum(before.rows) !== sum(rows)) differing++;
    sealed.push({
      _id: id,
      kind: d.kind,
      of: d.of,
      day,
      seq: before?.seq ?? 0,
      rows,
      sealed: {
        records: d.ids.length,
        seconds: round(rows.reduce((n, r) => n + r.s, 0)),
        checksum: checksumOf(d.ids),
        at,
      },
    });
  }
  if (differing > 0)
    ctx.logger.warn({ day, differing }, 'compaction: rollups differed from the raw records (replaced)');
  await ctx.data.rollups.seal(sealed);
  const marker: CompactionMarker = {
    _id: day,
    records,
    refused,
    seconds: round(seconds),
    checksum: checksumOf(raw.map((r) => r._id)),
    rollups: sealed.length,
    differing,
    sealedAt: at,
    doneAt: null,
  };
  return ctx.data.compaction.mark(marker);
}

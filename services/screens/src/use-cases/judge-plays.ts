import type { PlayRecord } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PlayRecordDoc, PlayRefusalDoc, ScreenRecord } from '../data';
import type { ClaimEntry, PlayLedger } from '../data/play-ledger';
import type { IntakeMessage } from '../data/play-intake';
import type { RollupDelta } from '../data/play-rollups';
import {
  addInterval,
  countsAsPlay,
  evidenceSince,
  judgePlays as judgeRecords,
  localDay,
  overlapMs,
  type PlayCandidate,
  type PlayEvidence,
  type PlayVerdict,
  playlistsOf,
  READ_MODEL_REASONS,
  trimPlayed,
} from '../domain';
import { takeoverPeriods } from './takeovers';

/** Compare-and-set rounds before the judge gives up on a batch (it judges it again from its checkpoint). */
const CAS_ROUNDS = 5;
/** A batch that counts nothing new still notes its time in the ledger when the last note is older than this. */
const LAST_BATCH_REFRESH_MS = 30_000;

export interface JudgedPlays {
  /** records newly stored as counted, and as refused */
  counted: number;
  refused: number;
  /** records found stored already (a resend past the stream's duplicate window, or a judge's second pass) */
  duplicates: number;
}

/**
 * Judges records taken from the intake stream, in its order (events/play-judge.ts: one judge at a time, from the
 * last checkpoint; everything up to `storedThrough` is stored already). Each display batch (the records of one
 * screen that arrived together) is judged as it was before the stream: against the screen's ledger at its arrival
 * time, the ledger's next version written by compare-and-set. Then the rollups get every new verdict (each rollup
 * adds a record once: its intake sequence against the rollup's own), and only then are the records stored: a judge
 * that dies anywhere in between is followed by one that judges the same messages again, finds the records claimed
 * in the ledger (accepted as judged) or stored (nothing to add), and the rollups' sequence keeps their counts once.
 */
export async function judgePlays(
  ctx: ServiceContext,
  messages: IntakeMessage[],
  storedThrough: number,
): Promise<JudgedPlays> {
  const result: JudgedPlays = { counted: 0, refused: 0, duplicates: 0 };
  if (messages.length === 0) return result;
  // one message per record id (a resend past the duplicate window may sit beside its first copy)
  const seen = new Set<string>();
  const unique = messages.filter((m) => !seen.has(m.play.id) && seen.add(m.play.id));
  result.duplicates += messages.length - unique.length;
  const byScreen = new Map<string, IntakeMessage[]>();
  for (const m of unique) byScreen.set(m.screenId, [...(byScreen.get(m.screenId) ?? []), m]);

  const counted: PlayRecordDoc[] = [];
  const refused: PlayRefusalDoc[] = [];
  // records found stored whose rollups may be unwritten (a judge died between storing them and its flush)
  const storedCounted: PlayRecordDoc[] = [];
  const storedRefused: PlayRefusalDoc[] = [];
  // the group's screens from the device view, as the displays' calls read them (current on every instance from the
  // screens' events): read from the database at every pass, they were thousands of documents a minute at 2,000
  // displays. A record about to be refused on what memory held is judged again on the screen read afresh (below).
  const screens = await ctx.data.screens.ofDevices([...byScreen.keys()]);
  await Promise.all(
    [...byScreen].map(async ([screenId, list]) => {
      const screen = screens.get(screenId);
      if (!screen) {
        ctx.logger.warn({ screenId, records: list.length }, 'play records of an unknown screen: dropped');
        return;
      }
      // a display's batch: its records arrived together (one arrival time, one signature time)
      const batches = new Map<string, IntakeMessage[]>();
      for (const m of list) {
        const key = `${m.at}|${m.signedAt ?? ''}`;
        batches.set(key, [...(batches.get(key) ?? []), m]);
      }
      await ctx.data.ledger.exclusive(screenId, async () => {
        for (const batch of batches.values()) {
          const first = batch[0] as IntakeMessage;
          const judged = await judgeBatch(ctx, screen, batch, first.at, storedThrough, first.signedAt);
          counted.push(...judged.counted);
          refused.push(...judged.refused);
          storedCounted.push(...judged.stored.counted);
          storedRefused.push(...judged.stored.refused);
          result.duplicates += judged.duplicates;
        }
      });
    }),
  );
  const seqOf = new Map(unique.map((m) => [m.play.id, m.seq]));
  const deltas = [
    ...deltasOf(counted, refused, (id) => seqOf.get(id) as number),
    // at the sequence they were judged at: a rollup that holds it already adds nothing
    ...deltasOf(
      storedCounted.filter((d) => d.seq !== undefined && d.seq > storedThrough),
      storedRefused.filter((d) => d.seq !== undefined && d.seq > storedThrough),
      (_id, d) => d.seq as number,
    ),
  ];
  const through = Math.max(...messages.map((m) => m.seq));
  await ctx.data.rollups.apply(deltas, through);
  const [inserted, refusals] = await Promise.all([
    ctx.data.plays.insertOnce(counted),
    ctx.data.plays.refuseOnce(refused),
  ]);
  result.counted += inserted.accepted;
  result.duplicates += inserted.duplicates + refusals.duplicates.size;
  result.refused += refused.length - refusals.duplicates.size;
  return result;
}

/** One display batch: judged against the ledger, the ledger's next version written; the records returned, unstored. */
async function judgeBatch(
  ctx: ServiceContext,
  screen: ScreenRecord,
  messages: IntakeMessage[],
  now: number,
  storedThrough: number,
  signedAt?: number,
): Promise<{
  counted: PlayRecordDoc[];
  refused: PlayRefusalDoc[];
  stored: { counted: PlayRecordDoc[]; refused: PlayRefusalDoc[] };
  duplicates: number;
}> {
  const plays: PlayRecord[] = messages.map((m) => m.play);
  const seqOf = new Map(messages.map((m) => [m.play.id, m.seq]));
  const screenId = screen._id;
  let ledger = await ctx.data.ledger.get(screenId);

  const storedAlready = await ctx.data.plays.storedOf(plays.map((p) => p.id));
  const candidates: PlayCandidate[] = plays
    .filter((p) => !storedAlready.counted.has(p.id) && !storedAlready.refused.has(p.id))
    .map((p) => ({
      id: p.id,
      fileId: p.fileId,
      page: p.page,
      start: Date.parse(p.startedAt),
      seconds: p.seconds,
      ...(p.reachedSecond !== undefined ? { reachedSecond: p.reachedSecond } : {}),
    }));
  // counted before (a resend): their intervals go into the set again, which changes nothing if they are there
  const resent = [...storedAlready.counted.values()].filter((d) => d.screenId === screenId);

  let evidence =
    candidates.length > 0 ? await gatherEvidence(ctx, screen, candidates, now, false, signedAt) : undefined;
  let fresh = false;
  let verdicts: PlayVerdict[] = [];
  for (let round = 0; ; round++) {
    let played = ledger.played;
    if (evidence) {
      let judged = judgeRecords(candidates, withLedger(evidence, ledger));
      if (!fresh && judged.verdicts.some((v) => !v.accepted && READ_MODEL_REASONS.has(v.reason))) {
        // the content views hold every event this instance heard, but a message lost without a reconnect leaves an
        // entry wrong until its backstop age (data/content.ts): before refusing, read everything afresh
        fresh = true;
        const current = (await ctx.data.screens.get(screenId, now)) ?? screen;
        evidence = await gatherEvidence(
          ctx,
          current.ownerId === screen.ownerId ? current : screen,
          candidates,
          now,
          true,
          signedAt,
        );
        judged = judgeRecords(candidates, withLedger(evidence, ledger));
      }
      verdicts = judged.verdicts;
      played = judged.played;
    }
    for (const d of resent) {
      const [s, e] = [d.startedAt.getTime(), endOf(d)];
      if (overlapMs(played, s, e) < e - s) played = addInterval(played, s, e);
    }
    const claims = claimsOf(candidates, verdicts, seqOf);
    const changed = played !== ledger.played || claims.length > 0;
    const quiet = ledger.lastBatchAt !== null && now - ledger.lastBatchAt.getTime() < LAST_BATCH_REFRESH_MS;
    if (!changed && quiet) break;
    // claims of records not stored yet stay (this judge stores its whole read after every batch of it is judged)
    const kept = ledger.claims.filter((c) => c.q !== undefined && c.q > storedThrough && !seqOf.has(c.id));
    const next = {
      played: trimPlayed(played, now),
      claims: [...kept, ...claims],
      lastBatchAt: new Date(Math.max(now, ledger.lastBatchAt?.getTime() ?? 0)),
    };
    if (await ctx.data.ledger.writeIf(screenId, ledger.rev, next)) break;
    if (round + 1 >= CAS_ROUNDS) throw new AppError('SERVICE_UNAVAILABLE');
    ledger = await ctx.data.ledger.get(screenId, true);
  }

  const byId = new Map(plays.map((p) => [p.id, p]));
  const receivedAt = new Date(now);
  const day = (start: number) => localDay(start, screen.timeZone);
  const counted: PlayRecordDoc[] = [];
  const refused: PlayRefusalDoc[] = [];
  for (const v of verdicts) {
    const p = byId.get(v.id) as PlayRecord;
    const start = Date.parse(p.startedAt);
    const base = {
      _id: p.id,
      screenId,
      ownerId: screen.ownerId,
      fileId: p.fileId,
      page: p.page,
      startedAt: new Date(start),
      day: day(start),
      receivedAt,
      // a video's: the second it reached, as the display signed it
      ...(p.reachedSecond !== undefined ? { reachedSecond: p.reachedSecond } : {}),
      seq: seqOf.get(p.id),
    };
    if (v.accepted) {
      counted.push({
        ...base,
        seconds: v.credited,
        claimedSeconds: p.seconds,
        ...(v.pageSeconds !== undefined ? { pageSeconds: v.pageSeconds } : {}),
        ...(v.takeoverId ? { takeoverId: v.takeoverId } : {}),
      });
    } else refused.push({ ...base, seconds: p.seconds, reason: v.reason });
  }
  const stored = {
    counted: [...storedAlready.counted.values()].filter((d) => d.screenId === screenId),
    refused: [...storedAlready.refused.values()].filter((d) => d.screenId === screenId),
  };
  return { counted, refused, stored, duplicates: plays.length - candidates.length };
}

/** Each record's contribution to its rollups, at its intake sequence. */
function deltasOf(
  counted: PlayRecordDoc[],
  refused: PlayRefusalDoc[],
  seqOf: (id: string, doc: PlayRecordDoc | PlayRefusalDoc) => number,
): RollupDelta[] {
  const deltas: RollupDelta[] = [];
  for (const d of counted) {
    const seq = seqOf(d._id, d);
    deltas.push({ kind: 'owner', of: d.ownerId, day: d.day, a: d.screenId, b: d.fileId, n: 1, s: d.seconds, seq });
    deltas.push({
      kind: 'file',
      of: d.fileId,
      day: d.day,
      a: d.ownerId,
      b: '',
      n: countsAsPlay(d.seconds, d.pageSeconds) ? 1 : 0,
      s: d.seconds,
      seq,
    });
  }
  for (const d of refused) {
    const seq = seqOf(d._id, d);
    deltas.push({ kind: 'refused', of: d.ownerId, day: d.day, a: d.screenId, b: d.reason, n: 1, s: d.seconds, seq });
  }
  return deltas;
}

const endOf = (d: PlayRecordDoc) => d.startedAt.getTime() + (d.claimedSeconds ?? d.seconds) * 1000;

function withLedger(ev: Omit<PlayEvidence, 'played' | 'claimed'>, ledger: PlayLedger): PlayEvidence {
  return { ...ev, played: ledger.played, claimed: new Map(ledger.claims.map((c) => [c.id, c])) };
}

/**
 * What this batch claims: its accepted records, so that if storing them fails after the ledger is written, the
 * display's resend (its next batch starts with the same records) is accepted as judged.
 */
function claimsOf(
  candidates: PlayCandidate[],
  verdicts: PlayVerdict[],
  seqOf: ReadonlyMap<string, number>,
): ClaimEntry[] {
  const credited = new Map(verdicts.flatMap((v) => (v.accepted ? [[v.id, v.credited] as const] : [])));
  return candidates
    .filter((c) => credited.has(c.id))
    .map((c) => ({
      id: c.id,
      s: c.start,
      e: c.start + c.seconds * 1000,
      credited: credited.get(c.id) ?? 0,
      q: seqOf.get(c.id),
    }));
}

/** The display's clock ahead of ours: the larger of its last heartbeat's measure and this signed batch's, if any. */
function clockAheadOf(heartbeat: number | null | undefined, signedAt: number | undefined, now: number) {
  const measured = [...(heartbeat != null ? [heartbeat] : []), ...(signedAt !== undefined ? [signedAt - now] : [])];
  return measured.length > 0 ? { clockAheadMs: Math.max(...measured) } : {};
}

/** What the domain needs to judge these records: read by _id, from this process's memory unless `fresh`. */
async function gatherEvidence(
  ctx: ServiceContext,
  screen: ScreenRecord,
  candidates: PlayCandidate[],
  now: number,
  fresh: boolean,
  signedAt?: number,
): Promise<Omit<PlayEvidence, 'played' | 'claimed'>> {
  const { content, gaps: gapRepo, history } = ctx.data;
  const gaps = await gapRepo.of(screen._id, now, fresh);
  const since = evidenceSince(candidates, gaps);
  // screens paired before assignments were kept in history have none: what they play now counts from their pairing
  const assignments =
    screen.assignmentSeq === undefined
      ? [{ at: screen.pairedAt.getTime(), assignment: screen.assignment }]
      : await history.since(screen._id, screen.assignmentSeq, since);
  const playlistIds = [...new Set(assignments.flatMap((a) => playlistsOf(a.assignment, a.groups)))];
  const fileIds = [...new Set(candidates.map((c) => c.fileId))];
  const [playlists, files, licences, takeovers, status] = await Promise.all([
    content.playlists(playlistIds, now, fresh),
    content.files(fileIds, now, fresh),
    content.licences(screen.ownerId, fileIds, now, fresh),
    takeoverPeriods(ctx, screen, now, fresh),
    ctx.data.statuses.get(screen._id),
  ]);
  return {
    ownerId: screen.ownerId,
    pairedAt: screen.pairedAt.getTime(),
    now,
    // its clock as its last heartbeat (or this signed batch) showed it: how far ahead a record may end (seconds)
    ...clockAheadOf(status?.ownerId === screen.ownerId ? status.clockAheadMs : null, signedAt, now),
    assignments,
    playlists,
    files,
    licences,
    gaps,
    takeovers,
  };
}

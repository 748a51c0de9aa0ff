import type {
  DeviceIdentity,
  PlayBatchRequest,
  PlayBatchResponse,
  PlayRecord,
  PlayRefusalReason,
} from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PlayRecordDoc, PlayRefusalDoc, ScreenRecord } from '../data';
import type { ClaimEntry, PlayLedger } from '../data/play-ledger';
import {
  addInterval,
  evidenceSince,
  judgePlays,
  localDay,
  overlapMs,
  type PlayCandidate,
  type PlayEvidence,
  type PlayVerdict,
  playBatchProblems,
  playlistsOf,
  READ_MODEL_REASONS,
  trimPlayed,
} from '../domain';
import { screenOfDevice } from './device-screen';
import { noteContact } from './display-contact';
import { checkSignedBatch, storeSignedBatch } from './signed-batch';
import { takeoverPeriods } from './takeovers';

/** Compare-and-set rounds before the batch is answered 503 (the display sends it again). */
const CAS_ROUNDS = 5;
/** A batch that counts nothing new still notes its time in the ledger when the last note is older than this. */
const LAST_BATCH_REFRESH_MS = 30_000;

/**
 * Proof of play. A batch with a future-dated, too old or repeated record is refused whole and stores nothing.
 * Otherwise each record is judged (domain/play-evidence: given, owned or licensed, the page exists, no overlap,
 * plausible time): it counts, or it is refused with its reason; either way it is stored once under its id, so a
 * batch sent again counts each record once and its answer tells the display it may forget them all.
 *
 * Order, for crashes and for other instances: one screen's batches run one at a time in this process; the judged
 * intervals go into the screen's ledger by compare-and-set (the insert of its next version; a batch that lost the
 * race is judged again against what won) before the records are stored, and the version remembers the records its
 * batch claimed, so a batch whose insert failed after its claim is accepted as judged when sent again, not refused
 * as overlapping itself. A record found stored is a duplicate, and its interval is added to the set again
 * (idempotent).
 */
export async function recordPlays(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: PlayBatchRequest,
): Promise<PlayBatchResponse> {
  const screen = await screenOfDevice(ctx, device);
  // signed proof of play: the signature is checked before anything is judged, the batch kept once it passes
  const signed = await checkSignedBatch(ctx, screen, input);
  const problems = playBatchProblems(input.plays, ctx.clock.ms());
  if (problems.length > 0) {
    throw new AppError('PLAY_BATCH_INVALID', {
      issues: problems.map((p) => ({ path: `plays.${p.index}`, message: p.reason, key: `screens.plays.${p.reason}` })),
    });
  }
  if (signed) await storeSignedBatch(ctx, screen, signed, input.plays);
  // a signed batch says when its display signed it: its clock then, measured like a heartbeat's sentAt
  const signedAt = input.signed ? Date.parse(input.signed.sentAt) : undefined;
  return ctx.data.ledger.exclusive(screen._id, () => judgeAndStore(ctx, screen, input.plays, signedAt));
}

async function judgeAndStore(
  ctx: ServiceContext,
  screen: ScreenRecord,
  plays: PlayRecord[],
  signedAt?: number,
): Promise<PlayBatchResponse> {
  const now = ctx.clock.ms();
  const screenId = screen._id;
  let ledger = await ctx.data.ledger.get(screenId);
  await noteContact(ctx, screen, now, ledger.lastBatchAt);

  const stored = await ctx.data.plays.storedOf(plays.map((p) => p.id));
  const candidates: PlayCandidate[] = plays
    .filter((p) => !stored.counted.has(p.id) && !stored.refused.has(p.id))
    .map((p) => ({ id: p.id, fileId: p.fileId, page: p.page, start: Date.parse(p.startedAt), seconds: p.seconds }));
  // counted before (a resend): their intervals go into the set again, which changes nothing if they are there
  const resent = [...stored.counted.values()].filter((d) => d.screenId === screenId);

  let evidence =
    candidates.length > 0 ? await gatherEvidence(ctx, screen, candidates, now, false, signedAt) : undefined;
  let fresh = false;
  let verdicts: PlayVerdict[] = [];
  for (let round = 0; ; round++) {
    let played = ledger.played;
    if (evidence) {
      let judged = judgePlays(candidates, withLedger(evidence, ledger));
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
        judged = judgePlays(candidates, withLedger(evidence, ledger));
      }
      verdicts = judged.verdicts;
      played = judged.played;
    }
    for (const d of resent) {
      const [s, e] = [d.startedAt.getTime(), endOf(d)];
      if (overlapMs(played, s, e) < e - s) played = addInterval(played, s, e);
    }
    const claims = claimsOf(candidates, verdicts);
    const changed = played !== ledger.played || claims.length > 0;
    const quiet = ledger.lastBatchAt !== null && now - ledger.lastBatchAt.getTime() < LAST_BATCH_REFRESH_MS;
    if (!changed && quiet) break;
    const next = {
      played: trimPlayed(played, now),
      claims: claims.length > 0 ? claims : ledger.claims,
      lastBatchAt: new Date(now),
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
  const [inserted, refusals] = await Promise.all([
    ctx.data.plays.insertOnce(counted),
    ctx.data.plays.refuseOnce(refused),
  ]);
  const refusedByReason: Partial<Record<PlayRefusalReason, number>> = {};
  for (const r of refused) {
    if (!refusals.duplicates.has(r._id)) refusedByReason[r.reason] = (refusedByReason[r.reason] ?? 0) + 1;
  }
  return {
    accepted: inserted.accepted,
    duplicates: plays.length - candidates.length + inserted.duplicates + refusals.duplicates.size,
    refused: refused.length - refusals.duplicates.size,
    refusedByReason,
  };
}

const endOf = (d: PlayRecordDoc) => d.startedAt.getTime() + (d.claimedSeconds ?? d.seconds) * 1000;

function withLedger(ev: Omit<PlayEvidence, 'played' | 'claimed'>, ledger: PlayLedger): PlayEvidence {
  return { ...ev, played: ledger.played, claimed: new Map(ledger.claims.map((c) => [c.id, c])) };
}

/**
 * What this batch claims: its accepted records, so that if storing them fails after the ledger is written, the
 * display's resend (its next batch starts with the same records) is accepted as judged.
 */
function claimsOf(candidates: PlayCandidate[], verdicts: PlayVerdict[]): ClaimEntry[] {
  const credited = new Map(verdicts.flatMap((v) => (v.accepted ? [[v.id, v.credited] as const] : [])));
  return candidates
    .filter((c) => credited.has(c.id))
    .map((c) => ({ id: c.id, s: c.start, e: c.start + c.seconds * 1000, credited: credited.get(c.id) ?? 0 }));
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

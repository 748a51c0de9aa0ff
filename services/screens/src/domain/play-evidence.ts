// Proof of play as evidence: which records of a batch count. A pure function of what the screen was
// given (its assignments over time, the playlists' contents over time, deletions), what its owner owned or held a
// licence for, the pages that exist, when the display was offline, the opening hours in force over time, and the
// plays already counted.
import {
  isOpenAt,
  minutesOf,
  type OpeningHours,
  PLAY_CLOCK_MARGIN_SECONDS,
  PLAY_FUTURE_SLACK_SECONDS,
  PLAY_MIN_SECONDS,
  PLAY_MIN_SHARE,
  PLAY_MAX_AGE_DAYS,
  PLAY_OVERLAP_TOLERANCE_SECONDS,
  PLAY_PROPAGATION_SECONDS,
  PLAY_REACHED_SLACK_SECONDS,
  type PlayRefusalReason,
  SCREEN_OFFLINE_AFTER_SECONDS,
  type ScreenAssignment,
  wallClock,
} from '@pagecast/contracts';
import { type LicencePeriod, mayCountPlay } from './file-use';

export type { LicencePeriod } from './file-use';

/** A span of time in ms since 1970, start included, end excluded. */
export interface Interval {
  s: number;
  e: number;
}
/** What the screen was given from `at` until the next entry. */
export interface AssignmentAt {
  at: number;
  assignment: ScreenAssignment;
  /** its groups' assignments then: given too, the display resolves precedence on its own clock */
  groups?: ScreenAssignment[];
  /**
   * the opening hours that applied from `at` (the one rule, settingsOf: its own, else its first group's that has
   * some), in the screen's zone then; absent: always open (entries written before hours were recorded)
   */
  openingHours?: OpeningHours;
  timeZone?: string;
}
/** A takeover of a file on this screen, from its start until it ended (or was to end). */
export interface TakeoverPeriod {
  id: string;
  fileId: string;
  from: number;
  to: number;
}
/** A playlist's files from `from` until the next version (a deleted playlist: no files). */
export interface PlaylistVersion {
  from: number;
  fileIds: string[];
}
export interface FileFacts {
  ownerId: string;
  /** pages 1..pageCount exist */
  pageCount: number;
  deletedAt: number | null;
  /** how long the display shows each of its pages (absent: not known, from an older read model document) */
  pageSeconds?: number;
  /** a playable video's length in seconds (absent: not a video, or not known yet) */
  videoSeconds?: number;
}
/** The display was out of contact from `from` (its last contact) until `to` (it came back). */
export interface OfflineGap {
  from: number;
  to: number;
}
/** A record whose interval an earlier batch put in the set, and the seconds it credited (its insert may have failed). */
export interface ClaimedPlay extends Interval {
  credited: number;
}

export interface PlayEvidence {
  ownerId: string;
  pairedAt: number;
  now: number;
  /**
   * how far ahead of the server's clock the display's was at its last heartbeat (ms; its `sentAt` against its
   * arrival); absent: not measured (an older display, or no heartbeat yet), taken as 0
   */
  clockAheadMs?: number;
  /** the screen's assignments, oldest first (only those that matter for the records' times are needed) */
  assignments: AssignmentAt[];
  /** versions of the playlists those assignments name, oldest first */
  playlists: ReadonlyMap<string, PlaylistVersion[]>;
  /** the files the records name (a file missing here is unknown: owned by nobody, no pages) */
  files: ReadonlyMap<string, FileFacts>;
  /** the screen owner's licence periods, by file */
  licences: ReadonlyMap<string, LicencePeriod[]>;
  gaps: OfflineGap[];
  /** the screen's counted plays: sorted, merged intervals */
  played: Interval[];
  claimed: ReadonlyMap<string, ClaimedPlay>;
  /** file takeovers that covered this screen */
  takeovers?: TakeoverPeriod[];
}

export interface PlayCandidate {
  id: string;
  fileId: string;
  page: number;
  /** ms since 1970 */
  start: number;
  seconds: number;
  /** a video's record: the second of the video it reached */
  reachedSecond?: number;
}

export type PlayVerdict =
  | {
      id: string;
      accepted: true;
      /** the seconds it adds to the screen's played time */
      credited: number;
      /** its page's duration when judged (kept with the record: what countsAsPlay measures it against) */
      pageSeconds?: number;
      /** it played during this takeover of its file */
      takeoverId?: string;
    }
  | { id: string; accepted: false; reason: PlayRefusalReason };

const SLACK_MS = PLAY_FUTURE_SLACK_SECONDS * 1000;
const CLOCK_MARGIN_MS = PLAY_CLOCK_MARGIN_SECONDS * 1000;
/** the display rounds a record to a tenth of a second, so back-to-back pages overlap by up to this much */
const ROUNDING_MS = 50;
const PROPAGATION_MS = PLAY_PROPAGATION_SECONDS * 1000;
const TOLERANCE_MS = PLAY_OVERLAP_TOLERANCE_SECONDS * 1000;
/** a display last heard of at a gap's start may still have had its live stream until its next report was due */
const OFFLINE_MS = SCREEN_OFFLINE_AFTER_SECONDS * 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Beyond this many intervals a screen's set closes its smallest holes (only a display that plays in crumbs gets there). */
export const MAX_PLAYED_INTERVALS = 5000;

/** Reasons that depend on read models fed by events: worth a fresh read before refusing. */
export const READ_MODEL_REASONS: ReadonlySet<PlayRefusalReason> = new Set([
  'not-assigned',
  'not-licensed',
  'no-such-page',
  'past-video-end',
]);

/**
 * Whether a record names a second of its video past the video's length (PLAY_REACHED_SLACK_SECONDS allowed: a
 * browser's last frame and the container's stated length differ by a frame or two). Refused rather than clamped: the
 * display clamps its own record to the length it was given, so a second past it was not made by a display playing
 * this file, and the signed record cannot be changed without breaking its proof. A record without a reached second,
 * or of a file whose length is not known (not a video, or its conversion not heard of yet), is not judged by it.
 */
export function reachedPastEnd(reachedSecond: number | undefined, facts: FileFacts | undefined): boolean {
  if (reachedSecond === undefined || facts?.videoSeconds === undefined) return false;
  return reachedSecond > facts.videoSeconds + PLAY_REACHED_SLACK_SECONDS;
}

function lastAtOrBefore<T>(list: T[], time: number, at: (item: T) => number): T | undefined {
  let lo = 0;
  let hi = list.length - 1;
  let found: T | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = list[mid] as T;
    if (at(item) <= time) {
      found = item;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The playlists an assignment names (a schedule: every day part's and its default; the display picks by its clock). */
export function playlistsOf(assignment: ScreenAssignment, groups: ScreenAssignment[] = []): string[] {
  if (groups.length > 0) return [...new Set([assignment, ...groups].flatMap((a) => playlistsOf(a)))];
  if (assignment.kind === 'playlist') return [assignment.playlistId];
  if (assignment.kind !== 'schedule') return [];
  const ids = assignment.schedule.parts.map((p) => p.playlistId);
  if (assignment.schedule.defaultPlaylistId) ids.push(assignment.schedule.defaultPlaylistId);
  return [...new Set(ids)];
}

/** Was the file in what the screen was given at this instant? */
export function inContentAt(ev: PlayEvidence, fileId: string, time: number): boolean {
  const entry = lastAtOrBefore(ev.assignments, time, (a) => a.at);
  if (!entry) return false;
  const deletedAt = ev.files.get(fileId)?.deletedAt;
  if (deletedAt != null && deletedAt <= time) return false;
  return [entry.assignment, ...(entry.groups ?? [])].some((assignment) => {
    if (assignment.kind === 'file') return assignment.fileId === fileId;
    return playlistsOf(assignment).some((id) => {
      const version = lastAtOrBefore(ev.playlists.get(id) ?? [], time, (v) => v.from);
      return version?.fileIds.includes(fileId) ?? false;
    });
  });
}

/**
 * The takeover of this file that covered the screen when a record started (from its start until a minute after its
 * end, the time an ended takeover takes to reach a display), if any: the record is a takeover play.
 */
export function takeoverAt(ev: PlayEvidence, fileId: string, start: number): string | undefined {
  const deletedAt = ev.files.get(fileId)?.deletedAt;
  if (deletedAt != null && deletedAt <= start) return undefined;
  return (ev.takeovers ?? []).find((t) => t.fileId === fileId && t.from <= start && start <= t.to + PROPAGATION_MS)?.id;
}

/** Was the file in the screen's content at some moment of [from, to]? Content changes only at known instants. */
export function inContentDuring(ev: PlayEvidence, fileId: string, from: number, to: number): boolean {
  if (inContentAt(ev, fileId, from)) return true;
  const changes = new Set<number>();
  for (const a of ev.assignments) if (a.at > from && a.at <= to) changes.add(a.at);
  for (const versions of ev.playlists.values()) {
    for (const v of versions) if (v.from > from && v.from <= to) changes.add(v.from);
  }
  for (const time of changes) if (inContentAt(ev, fileId, time)) return true;
  return false;
}

/**
 * Given: in the content at some moment of the minute before the start (a live change takes that long to arrive), or,
 * for a start within an offline gap (up to a minute after the display came back, until it has read what changed),
 * in the content around the gap's start (from a minute before its last contact until it counted as offline: its
 * live stream may have brought a change after its last report): an offline display plays what it last received.
 */
export function wasGiven(ev: PlayEvidence, fileId: string, start: number): boolean {
  if (inContentDuring(ev, fileId, start - PROPAGATION_MS, start)) return true;
  return ev.gaps.some(
    (g) =>
      g.from <= start &&
      start <= g.to + PROPAGATION_MS &&
      inContentDuring(ev, fileId, g.from - PROPAGATION_MS, Math.min(g.from + OFFLINE_MS, g.to)),
  );
}

/** The history entries in force at some moment of [from, to]. */
function entriesDuring(ev: PlayEvidence, from: number, to: number): AssignmentAt[] {
  const out: AssignmentAt[] = [];
  const first = lastAtOrBefore(ev.assignments, from, (a) => a.at);
  if (first) out.push(first);
  for (const a of ev.assignments) if (a.at > from && a.at <= to) out.push(a);
  return out;
}

/**
 * Open at this instant by hours the display may have been following: those of an entry in force at some moment of
 * the minute before (new hours take that long to reach a display, as an assignment does), or, within an offline gap
 * (until a minute after it), those it had around the gap's start (an offline display follows the hours it last
 * received; as wasGiven). Before any entry: open (nothing is known; the pairing rules judge that time).
 */
export function openAt(ev: PlayEvidence, time: number): boolean {
  const candidates = entriesDuring(ev, time - PROPAGATION_MS, time);
  for (const g of ev.gaps) {
    if (g.from <= time && time <= g.to + PROPAGATION_MS) {
      candidates.push(...entriesDuring(ev, g.from - PROPAGATION_MS, Math.min(g.from + OFFLINE_MS, g.to)));
    }
  }
  if (candidates.length === 0) return true;
  return candidates.some((a) => isOpenAt(a.openingHours ?? null, a.timeZone ?? 'UTC', time));
}

/** The zone's offset from UTC at this instant, in minutes (what its wall clock shows less UTC's). */
function offsetMinutes(timeZone: string, time: number): number {
  const wall = wallClock(time, timeZone);
  const utc = new Date(time);
  const week = 7 * 1440;
  const diff = (wall.day - utc.getUTCDay()) * 1440 + wall.minute - (utc.getUTCHours() * 60 + utc.getUTCMinutes());
  return ((((diff + week / 2) % week) + week) % week) - week / 2;
}

/**
 * The instants of [from, to] where openness under some entry's hours may change: a span's start or end on the wall
 * clock of its zone, and the instant its offset changes (daylight saving), if it does. A record is at most a day
 * long, so it holds at most one change of offset; offsets change on a whole minute.
 */
function hourBoundaries(ev: PlayEvidence, from: number, to: number): number[] {
  const out: number[] = [];
  const offsets = new Map<string, number[]>();
  for (const a of ev.assignments) {
    if (a.openingHours == null || a.openingHours.length === 0) continue;
    const zone = a.timeZone ?? 'UTC';
    let zoneOffsets = offsets.get(zone);
    if (!zoneOffsets) {
      const first = offsetMinutes(zone, from);
      const last = offsetMinutes(zone, to);
      zoneOffsets = first === last ? [first] : [first, last];
      if (first !== last) {
        // the first whole minute with the new offset
        let lo = Math.floor(from / MINUTE_MS);
        let hi = Math.ceil(to / MINUTE_MS);
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offsetMinutes(zone, mid * MINUTE_MS) === first) lo = mid;
          else hi = mid;
        }
        out.push(hi * MINUTE_MS);
      }
      offsets.set(zone, zoneOffsets);
    }
    // each offset's boundaries over the whole record: a superset of those that hold on each side of the change
    for (const offset of zoneOffsets) {
      const shift = offset * MINUTE_MS;
      for (let day = Math.floor((from + shift) / DAY_MS) * DAY_MS; day <= to + shift; day += DAY_MS) {
        for (const span of a.openingHours) {
          out.push(day + minutesOf(span.start) * MINUTE_MS - shift, day + minutesOf(span.end) * MINUTE_MS - shift);
        }
      }
    }
  }
  return out;
}

/**
 * Whether a record [s, e) falls in time the screen was closed. A record partly closed is refused whole: the display
 * stops playing and recording at closing, so a record running past it is not one the display makes. Its first and
 * last second (PLAY_OVERLAP_TOLERANCE_SECONDS; half a shorter record) are not judged: a record that merely touches
 * an opening or closing boundary (clocks, rounding) counts. The record is looked at on its ends and on every instant
 * within where that may change: a span's start or end under an entry's hours or its zone's change of offset
 * (hourBoundaries), an entry's time and a minute after it (the entries that may apply change), a gap's edges.
 */
export function closedDuring(ev: PlayEvidence, s: number, e: number): boolean {
  // entries without hours (always open, or written before hours were recorded): judged as before
  if (!ev.assignments.some((a) => a.openingHours != null)) return false;
  const margin = Math.min(TOLERANCE_MS, (e - s) / 2);
  const from = s + margin;
  const to = e - margin;
  if (!openAt(ev, from) || !openAt(ev, to)) return true;
  const changes: number[] = [];
  for (const a of ev.assignments) changes.push(a.at, a.at + PROPAGATION_MS);
  // a gap's window is closed at both ends: the instant after its end is judged without it
  for (const g of ev.gaps) changes.push(g.from, g.to + PROPAGATION_MS + 1);
  changes.push(...hourBoundaries(ev, from, to));
  return changes.some((p) => p > from && p < to && !openAt(ev, p));
}

/** How much of [s, e) the sorted, disjoint intervals cover. */
export function overlapMs(played: Interval[], s: number, e: number): number {
  let lo = 0;
  let hi = played.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((played[mid] as Interval).e <= s) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let i = lo; i < played.length; i++) {
    const iv = played[i] as Interval;
    if (iv.s >= e) break;
    total += Math.min(e, iv.e) - Math.max(s, iv.s);
  }
  return Math.max(0, total);
}

/**
 * Adds [s, e) to sorted intervals, merging what overlaps or lies within `joinMs` of it (honest pages leave holes of
 * a few ms between them: joined, a screen that plays all day is one interval, not one per page). Returns a new array.
 */
export function addInterval(played: Interval[], s: number, e: number, joinMs = TOLERANCE_MS): Interval[] {
  const out: Interval[] = [];
  let ns = s;
  let ne = e;
  let placed = false;
  for (const iv of played) {
    if (iv.e + joinMs < ns) out.push(iv);
    else if (iv.s - joinMs > ne) {
      if (!placed) {
        out.push({ s: ns, e: ne });
        placed = true;
      }
      out.push(iv);
    } else {
      ns = Math.min(ns, iv.s);
      ne = Math.max(ne, iv.e);
    }
  }
  if (!placed) out.push({ s: ns, e: ne });
  return out;
}

/**
 * What is kept of a screen's set: nothing that ended before records may start (older records are refused whole), and
 * at most `max` intervals (closing the smallest holes: a set can only grow, so a display that plays in crumbs only
 * makes its own later records likelier to overlap).
 */
export function trimPlayed(played: Interval[], now: number, max = MAX_PLAYED_INTERVALS): Interval[] {
  const cutoff = now - PLAY_MAX_AGE_DAYS * 86_400_000 - SLACK_MS;
  let kept = played.filter((iv) => iv.e >= cutoff);
  if (kept.length <= max) return kept;
  const holes = kept
    .slice(1)
    .map((iv, i) => iv.s - (kept[i] as Interval).e)
    .sort((a, b) => a - b);
  const threshold = holes[kept.length - max - 1] as number;
  const merged: Interval[] = [];
  for (const iv of kept) {
    const last = merged[merged.length - 1];
    if (last && iv.s - last.e <= threshold) last.e = Math.max(last.e, iv.e);
    else merged.push({ ...iv });
  }
  kept = merged;
  return kept;
}

/**
 * How far past now a record may end: how far ahead the display's clock was at its last heartbeat (never less than 0,
 * never more than the batch's own slack) plus a few seconds. A display makes a record when its page ends, so on its
 * own clock no record ends after the batch was sent; a record further ahead is made up, and minutes of slack would
 * let a display claim time that has not passed yet.
 */
export function futureAllowanceMs(clockAheadMs: number | undefined): number {
  return Math.min(Math.max(0, clockAheadMs ?? 0), SLACK_MS) + CLOCK_MARGIN_MS;
}

/**
 * Whether a counted record is a play for its seller's sold report: its credited seconds (what it added to its screen's
 * played time) reach PLAY_MIN_SHARE of its page's duration, and PLAY_MIN_SECONDS, compared at the display's precision
 * (ROUNDING_MS). Plays count time, not records: crumbs of a millisecond, or records overlapping the one before, add
 * little or no credited time and are not plays. A page's duration not known (older records and read models): the
 * floor only.
 */
export function countsAsPlay(creditedSeconds: number, pageSeconds: number | undefined): boolean {
  const minMs = Math.max(PLAY_MIN_SECONDS, PLAY_MIN_SHARE * (pageSeconds ?? 0)) * 1000;
  return Math.round(creditedSeconds * 1000) + ROUNDING_MS >= minMs;
}

/**
 * Judges the records of one batch (none already stored). Each counts only when it starts after the screen was paired
 * (5 minutes of clock slack) and ends by now (futureAllowanceMs: seconds past the display's measured clock), the screen was open throughout (closedDuring), its file was given to the screen then, its owner owned or had
 * licensed the file then, the page exists, and it does not overlap (beyond a second, and never half of itself) what
 * the screen already played, this batch's earlier records included. A record an earlier batch claimed (its insert
 * failed after the set was written) counts as judged then. Returns a verdict per record, in the order given, and the
 * screen's played intervals with the accepted ones added.
 */
export function judgePlays(
  records: PlayCandidate[],
  ev: PlayEvidence,
): { verdicts: PlayVerdict[]; played: Interval[] } {
  const byId = new Map<string, PlayVerdict>();
  let played = ev.played;
  const order = [...records].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
  for (const r of order) {
    const s = r.start;
    const e = r.start + r.seconds * 1000;
    const claimed = ev.claimed.get(r.id);
    if (claimed && claimed.s === s && claimed.e === e) {
      const pageSeconds = ev.files.get(r.fileId)?.pageSeconds;
      byId.set(r.id, {
        id: r.id,
        accepted: true,
        credited: claimed.credited,
        ...(pageSeconds !== undefined ? { pageSeconds } : {}),
      });
      continue;
    }
    const refuse = (reason: PlayRefusalReason) => byId.set(r.id, { id: r.id, accepted: false, reason });
    if (s < ev.pairedAt - SLACK_MS) refuse('before-pairing');
    else if (e > ev.now + futureAllowanceMs(ev.clockAheadMs)) refuse('ends-in-future');
    // before its content: a closed display is black and plays nothing, takeovers included
    else if (closedDuring(ev, s, e)) refuse('closed');
    else if (!takeoverAt(ev, r.fileId, s) && !wasGiven(ev, r.fileId, s)) refuse('not-assigned');
    else if (!mayCountPlay(ev.files.get(r.fileId), ev.ownerId, ev.licences.get(r.fileId) ?? [], s))
      refuse('not-licensed');
    else if (r.page < 1 || r.page > (ev.files.get(r.fileId)?.pageCount ?? 0)) refuse('no-such-page');
    else if (reachedPastEnd(r.reachedSecond, ev.files.get(r.fileId))) refuse('past-video-end');
    else {
      const overlap = overlapMs(played, s, e);
      if (overlap > Math.min(TOLERANCE_MS, (e - s) / 2)) refuse('overlap');
      else {
        const takeoverId = takeoverAt(ev, r.fileId, s);
        const credited = Math.round(e - s - overlap) / 1000;
        const pageSeconds = ev.files.get(r.fileId)?.pageSeconds;
        byId.set(r.id, {
          id: r.id,
          accepted: true,
          credited,
          ...(pageSeconds !== undefined ? { pageSeconds } : {}),
          ...(takeoverId ? { takeoverId } : {}),
        });
        played = addInterval(played, s, e);
      }
    }
  }
  return { verdicts: records.map((r) => byId.get(r.id) as PlayVerdict), played };
}

/** How far back the evidence must reach for these records (assignments and playlists in effect since then). */
export function evidenceSince(records: Array<{ start: number }>, gaps: OfflineGap[]): number {
  let earliest = Number.POSITIVE_INFINITY;
  let latest = Number.NEGATIVE_INFINITY;
  for (const r of records) {
    earliest = Math.min(earliest, r.start);
    latest = Math.max(latest, r.start);
  }
  let since = earliest - PROPAGATION_MS;
  for (const g of gaps) {
    if (g.from <= latest && g.to + PROPAGATION_MS >= earliest) since = Math.min(since, g.from - PROPAGATION_MS);
  }
  return since;
}

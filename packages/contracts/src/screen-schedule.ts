// Shared by the screens service (validation) and the display (switching on its own clock, offline too).
// What a screen plays at an instant: a pure function of the assignment, the screen's time zone and the instant.
// Day parts are wall-clock ranges in the screen's zone (Intl does the zone arithmetic, daylight saving included).
import type { DeviceScreen, ScreenAssignment, ScreenSchedule } from './api/screens';
import type { TakeoverAlert } from './api/screen-alerts';

const MINUTES_PER_DAY = 1440;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** What plays: a playlist, a file, or nothing. */
export type Playing = { kind: 'playlist'; playlistId: string } | { kind: 'file'; fileId: string } | { kind: 'none' };

export function minutesOf(time: string): number {
  const [h = '0', m = '0'] = time.split(':');
  return Number(h) * 60 + Number(m);
}

export type ScheduleProblem = { part: number; reason: 'empty' | 'overlap'; other?: number };

/**
 * Empty (start = end) and overlapping parts, as minutes of the week each part covers. A part whose end is not
 * after its start crosses midnight into the next day.
 */
export function scheduleProblems(schedule: ScreenSchedule): ScheduleProblem[] {
  const owner = new Int16Array(MINUTES_PER_WEEK).fill(-1);
  const problems: ScheduleProblem[] = [];
  schedule.parts.forEach((part, index) => {
    const start = minutesOf(part.start);
    const end = minutesOf(part.end);
    if (start === end || (start === MINUTES_PER_DAY && end === 0)) {
      problems.push({ part: index, reason: 'empty' });
      return;
    }
    const length = end > start ? end - start : MINUTES_PER_DAY - start + end;
    for (const day of new Set(part.days)) {
      for (let i = 0; i < length; i++) {
        const minute = (day * MINUTES_PER_DAY + start + i) % MINUTES_PER_WEEK;
        const other = owner[minute] ?? -1;
        if (other >= 0 && other !== index) {
          if (!problems.some((p) => p.part === index && p.other === other)) {
            problems.push({ part: index, reason: 'overlap', other });
          }
          continue;
        }
        owner[minute] = index;
      }
    }
  });
  return problems;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall clock in a zone: weekday (0 = Sunday), minute of the day and second of the minute. */
export function wallClock(instant: number, timeZone: string): { day: number; minute: number; second: number } {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  return {
    day: WEEKDAYS.indexOf(get('weekday')),
    minute: Number(get('hour')) * 60 + Number(get('minute')),
    second: Number(get('second')),
  };
}

/** Whether a weekly span (days, start, end; start ≥ end crosses midnight) covers this weekday and minute. */
export function spanCovers(part: { days: number[]; start: string; end: string }, day: number, minute: number): boolean {
  const start = minutesOf(part.start);
  const end = minutesOf(part.end);
  if (end > start) return part.days.includes(day) && minute >= start && minute < end;
  // crosses midnight: the evening of a listed day, or the early hours after it
  return (part.days.includes(day) && minute >= start) || (part.days.includes((day + 6) % 7) && minute < end);
}

function scheduleAt(schedule: ScreenSchedule, day: number, minute: number): Playing {
  const part = schedule.parts.find((p) => spanCovers(p, day, minute));
  const playlistId = part?.playlistId ?? schedule.defaultPlaylistId;
  return playlistId ? { kind: 'playlist', playlistId } : { kind: 'none' };
}

/** What plays at `instant` (ms). */
export function resolvePlaying(assignment: ScreenAssignment, timeZone: string, instant: number): Playing {
  switch (assignment.kind) {
    case 'playlist':
      return { kind: 'playlist', playlistId: assignment.playlistId };
    case 'file':
      return { kind: 'file', fileId: assignment.fileId };
    case 'none':
      return { kind: 'none' };
    case 'schedule': {
      const { day, minute } = wallClock(instant, timeZone);
      return scheduleAt(assignment.schedule, day, minute);
    }
  }
}

/** Every playlist and file an assignment may play: what the screen's device may read. */
export function assignedContent(assignment: ScreenAssignment): { playlistIds: string[]; fileIds: string[] } {
  switch (assignment.kind) {
    case 'playlist':
      return { playlistIds: [assignment.playlistId], fileIds: [] };
    case 'file':
      return { playlistIds: [], fileIds: [assignment.fileId] };
    case 'none':
      return { playlistIds: [], fileIds: [] };
    case 'schedule': {
      const ids = new Set(assignment.schedule.parts.map((p) => p.playlistId));
      if (assignment.schedule.defaultPlaylistId) ids.add(assignment.schedule.defaultPlaylistId);
      return { playlistIds: [...ids], fileIds: [] };
    }
  }
}

/** Minutes of the week where some part starts or ends. */
function boundaryMinutes(schedule: ScreenSchedule): number[] {
  const out = new Set<number>();
  for (const part of schedule.parts) {
    for (const day of part.days) {
      const start = minutesOf(part.start);
      const end = minutesOf(part.end);
      out.add((day * MINUTES_PER_DAY + start) % MINUTES_PER_WEEK);
      const endDay = end > start ? day : day + 1;
      out.add((endDay * MINUTES_PER_DAY + end) % MINUTES_PER_WEEK);
    }
  }
  return [...out].sort((a, b) => a - b);
}

const sameAs = (a: Playing, b: Playing) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The first instant after `instant` at which what plays changes, or null when it never does. Wall-clock distance
 * first; then corrected by the zone's offset change in between (daylight saving), so the switch happens when the
 * screen's own clock shows the boundary.
 */
export function nextBoundary(assignment: ScreenAssignment, timeZone: string, instant: number): number | null {
  if (assignment.kind !== 'schedule') return null;
  const boundaries = boundaryMinutes(assignment.schedule);
  if (boundaries.length === 0) return null;
  const current = resolvePlaying(assignment, timeZone, instant);
  let from = instant;
  // At most one week of boundaries, each checked: a boundary between two parts of the same playlist is no change.
  for (let step = 0; step <= boundaries.length + 1; step++) {
    const clock = wallClock(from, timeZone);
    const nowMinute = clock.day * MINUTES_PER_DAY + clock.minute;
    const target = boundaries.find((b) => b > nowMinute) ?? (boundaries[0] as number) + MINUTES_PER_WEEK;
    let candidate = from - clock.second * 1000 - (from % 1000) + (target - nowMinute) * 60_000;
    // Daylight saving in between moves the wall clock: shift by what the clock shows versus what was wanted.
    for (let fix = 0; fix < 2; fix++) {
      const seen = wallClock(candidate, timeZone);
      let diff = (seen.day * MINUTES_PER_DAY + seen.minute - (target % MINUTES_PER_WEEK)) % MINUTES_PER_WEEK;
      if (diff > MINUTES_PER_WEEK / 2) diff -= MINUTES_PER_WEEK;
      if (diff < -MINUTES_PER_WEEK / 2) diff += MINUTES_PER_WEEK;
      if (diff === 0) break;
      const shifted = candidate - diff * 60_000;
      // A wall time skipped by a spring-forward gap: the change happens at the end of the gap.
      if (shifted <= from) break;
      candidate = shifted;
    }
    if (candidate <= instant) candidate = instant + 60_000;
    if (!sameAs(resolvePlaying(assignment, timeZone, candidate), current)) return candidate;
    from = candidate;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Fleet precedence: one resolver for a screen at an instant, shared by the display (on its own clock,
// offline too), the server (agenda, proof of play) and the agenda below. An active takeover wins; then the screen's
// own assignment when it is not 'none'; then its groups' assignments in the member's order (the first group whose
// assignment plays something at that instant). `resolvePlaying` is the inner step for one assignment.

/** What a takeover shows: a file of the member's library (or bought), or a message typed when it started. */
export type TakeoverShow =
  | { kind: 'file'; fileId: string }
  | { kind: 'message'; title: string; body: string }
  | TakeoverAlert;

/** A takeover as a resolver sees it: from `startsAt` (ms) until `endsAt` (ms, excluded; null = until ended). */
export interface TakeoverWindow {
  id: string;
  show: TakeoverShow;
  startsAt: number;
  endsAt: number | null;
}

/** Everything one screen needs to resolve what it plays: never another screen's ids. */
export interface ResolutionInputs {
  timeZone: string;
  /** the screen's own assignment */
  assignment: ScreenAssignment;
  /** the screen's groups' assignments, highest precedence first */
  groups: ReadonlyArray<{ id: string; assignment: ScreenAssignment }>;
  /** takeovers that concern this screen (ended ones may be left out) */
  takeovers: ReadonlyArray<TakeoverWindow>;
}

/** What plays, a takeover's message included. */
export type Shown = Playing | { kind: 'message'; title: string; body: string } | TakeoverAlert;

/** Which rule won: a takeover, the screen's own assignment, one of its groups, or none (nothing plays). */
export type Because =
  | { rule: 'takeover'; takeoverId: string }
  | { rule: 'screen' }
  | { rule: 'group'; groupId: string }
  | { rule: 'none' };

export interface Resolution {
  playing: Shown;
  because: Because;
}

/** The takeover running at `instant`: of several (only an offline copy could hold overlapping ones), the latest start. */
export function activeTakeover(takeovers: ReadonlyArray<TakeoverWindow>, instant: number): TakeoverWindow | undefined {
  let found: TakeoverWindow | undefined;
  for (const t of takeovers) {
    if (t.startsAt <= instant && (t.endsAt === null || instant < t.endsAt)) {
      if (!found || t.startsAt > found.startsAt || (t.startsAt === found.startsAt && t.id > found.id)) found = t;
    }
  }
  return found;
}

/**
 * A display's manifest (GET /api/screens/device/me) as resolver inputs: what the display runs on its own clock,
 * offline too (a manifest of an older server, without groups or takeovers, resolves its own assignment).
 */
export function deviceInputs(
  screen: Pick<DeviceScreen, 'timeZone' | 'assignment' | 'groups' | 'takeovers'>,
): ResolutionInputs {
  return {
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    groups: screen.groups ?? [],
    takeovers: (screen.takeovers ?? []).map((t) => ({
      id: t.id,
      show: t.show,
      startsAt: Date.parse(t.startsAt),
      endsAt: t.endsAt === null ? null : Date.parse(t.endsAt),
    })),
  };
}

/** What a screen plays at `instant` (ms) and why. */
export function resolveScreen(inputs: ResolutionInputs, instant: number): Resolution {
  const takeover = activeTakeover(inputs.takeovers, instant);
  if (takeover) return { playing: { ...takeover.show }, because: { rule: 'takeover', takeoverId: takeover.id } };
  if (inputs.assignment.kind !== 'none') {
    const own = resolvePlaying(inputs.assignment, inputs.timeZone, instant);
    if (own.kind !== 'none') return { playing: own, because: { rule: 'screen' } };
  }
  for (const group of inputs.groups) {
    const playing = resolvePlaying(group.assignment, inputs.timeZone, instant);
    if (playing.kind !== 'none') return { playing, because: { rule: 'group', groupId: group.id } };
  }
  return { playing: { kind: 'none' }, because: { rule: 'none' } };
}

/** Every playlist and file a screen may be asked to play from these inputs (its device may read them). */
export function contentOfInputs(inputs: ResolutionInputs): { playlistIds: string[]; fileIds: string[] } {
  const playlistIds = new Set<string>();
  const fileIds = new Set<string>();
  for (const a of [inputs.assignment, ...inputs.groups.map((g) => g.assignment)]) {
    const c = assignedContent(a);
    for (const id of c.playlistIds) playlistIds.add(id);
    for (const id of c.fileIds) fileIds.add(id);
  }
  for (const t of inputs.takeovers) {
    if (t.show.kind === 'file') fileIds.add(t.show.fileId);
    // an alert's rule file, shown under the report's facts
    else if (t.show.kind === 'alert' && t.show.fileId) fileIds.add(t.show.fileId);
  }
  return { playlistIds: [...playlistIds], fileIds: [...fileIds] };
}

/**
 * The first instant after `instant` at which the resolution may change (a day-part boundary of any assignment, a
 * takeover's start or end), or null when nothing ever changes. A candidate, not a proof: the caller resolves again.
 */
export function nextChange(inputs: ResolutionInputs, instant: number): number | null {
  let next = Number.POSITIVE_INFINITY;
  for (const a of [inputs.assignment, ...inputs.groups.map((g) => g.assignment)]) {
    const b = nextBoundary(a, inputs.timeZone, instant);
    if (b !== null && b < next) next = b;
  }
  for (const t of inputs.takeovers) {
    if (t.startsAt > instant && t.startsAt < next) next = t.startsAt;
    if (t.endsAt !== null && t.endsAt > instant && t.endsAt < next) next = t.endsAt;
  }
  return Number.isFinite(next) ? next : null;
}

const sameEntry = (a: AgendaEntry, b: AgendaEntry) =>
  JSON.stringify([a.playing, a.because, a.stopped]) === JSON.stringify([b.playing, b.because, b.stopped]);

/** A bought file's licence: it stops playing at `endsAt` (the display can no longer read it). */
export interface LicenceEnd {
  fileId: string;
  endsAt: number;
}

export interface AgendaEntry {
  from: number;
  to: number;
  playing: Shown;
  because: Because;
  /** bought files in what plays whose licence has ended by `from`: they no longer show */
  stopped: string[];
}

export interface Agenda {
  entries: AgendaEntry[];
  /** licence ends inside the window of files in what plays then (content that will stop, and when) */
  licenceEnds: Array<{ fileId: string; at: number }>;
}

function filesOf(playing: Shown, playlistFiles: ReadonlyMap<string, readonly string[]>): string[] {
  if (playing.kind === 'file') return [playing.fileId];
  if (playing.kind === 'playlist') return [...(playlistFiles.get(playing.playlistId) ?? [])];
  return [];
}

/**
 * What plays from `from` to `to` (ms) and why: the resolver stepped over its change points (day-part boundaries,
 * takeover starts and ends, licence ends), equal neighbours merged; an entry playing nothing is a gap. A bought file
 * whose licence has ended is named in `stopped`; a file alone that stopped is a gap too (playing it shows nothing).
 */
export function agendaOf(
  inputs: ResolutionInputs,
  from: number,
  to: number,
  opts: { licenceEnds?: ReadonlyArray<LicenceEnd>; playlistFiles?: ReadonlyMap<string, readonly string[]> } = {},
): Agenda {
  const licenceEnds = opts.licenceEnds ?? [];
  const playlistFiles = opts.playlistFiles ?? new Map<string, readonly string[]>();
  const ended = (fileId: string, at: number) => licenceEnds.some((l) => l.fileId === fileId && l.endsAt <= at);
  const entries: AgendaEntry[] = [];
  const out: Agenda = { entries, licenceEnds: [] };
  let t = from;
  // a week has at most a few hundred change points; the bound only guards against a resolver that never moves
  for (let guard = 0; t < to && guard < 100_000; guard++) {
    const resolution = resolveScreen(inputs, t);
    const files = filesOf(resolution.playing, playlistFiles);
    const stopped = files.filter((f) => ended(f, t));
    const blank = resolution.playing.kind === 'file' && stopped.length === 1;
    let next = nextChange(inputs, t) ?? to;
    for (const l of licenceEnds) if (l.endsAt > t && l.endsAt < next) next = l.endsAt;
    next = Math.min(Math.max(next, t + 1), to);
    const entry: AgendaEntry = blank
      ? { from: t, to: next, playing: { kind: 'none' }, because: resolution.because, stopped }
      : { from: t, to: next, ...resolution, stopped };
    const last = entries[entries.length - 1];
    if (last && last.to === t && sameEntry(last, entry)) {
      last.to = next;
    } else entries.push(entry);
    t = next;
  }
  for (const l of licenceEnds) {
    if (l.endsAt < from || l.endsAt >= to) continue;
    const playingThen = resolveScreen(inputs, l.endsAt);
    if (filesOf(playingThen.playing, playlistFiles).includes(l.fileId)) {
      out.licenceEnds.push({ fileId: l.fileId, at: l.endsAt });
    }
  }
  out.licenceEnds.sort((a, b) => a.at - b.at);
  return out;
}

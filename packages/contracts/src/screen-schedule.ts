// Shared by the screens service (validation) and the display (switching on its own clock, offline too).
// What a screen plays at an instant: a pure function of the assignment, the screen's time zone and the instant.
// Day parts are wall-clock ranges in the screen's zone (Intl does the zone arithmetic, daylight saving included).
import type { ScreenAssignment, ScreenSchedule } from './api/screens';

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

function partPlaysAt(part: ScreenSchedule['parts'][number], day: number, minute: number): boolean {
  const start = minutesOf(part.start);
  const end = minutesOf(part.end);
  if (end > start) return part.days.includes(day) && minute >= start && minute < end;
  // crosses midnight: the evening of a listed day, or the early hours after it
  return (part.days.includes(day) && minute >= start) || (part.days.includes((day + 6) % 7) && minute < end);
}

function scheduleAt(schedule: ScreenSchedule, day: number, minute: number): Playing {
  const part = schedule.parts.find((p) => partPlaysAt(p, day, minute));
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

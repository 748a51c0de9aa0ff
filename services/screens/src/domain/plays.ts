import { PLAY_FUTURE_SLACK_SECONDS, PLAY_MAX_AGE_DAYS, type PlayRecord } from '@pagecast/contracts';

export type PlayBatchProblem = { index: number; reason: 'future' | 'too-old' | 'repeated' };

/**
 * A batch is refused whole when a record starts in the future (beyond clock slack), is older than the device may
 * keep records, or repeats an id inside the batch: nothing of it is stored.
 */
export function playBatchProblems(plays: PlayRecord[], now: number): PlayBatchProblem[] {
  const problems: PlayBatchProblem[] = [];
  const seen = new Set<string>();
  plays.forEach((play, index) => {
    const start = Date.parse(play.startedAt);
    if (start > now + PLAY_FUTURE_SLACK_SECONDS * 1000) problems.push({ index, reason: 'future' });
    else if (start < now - PLAY_MAX_AGE_DAYS * 86_400_000) problems.push({ index, reason: 'too-old' });
    if (seen.has(play.id)) problems.push({ index, reason: 'repeated' });
    seen.add(play.id);
  });
  return problems;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
/** The calendar day (YYYY-MM-DD) of an instant in the screen's zone: plays are counted per local day. */
export function localDay(instant: number, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  return f.format(new Date(instant));
}

/** Every calendar day from `from` to `to` (YYYY-MM-DD, inclusive), in order. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised (spreadsheets). */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: Array<Array<string | number>>): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

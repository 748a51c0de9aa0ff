// What a screen plays now and next, on the screen's own clock: the shared resolver (resolvePlaying, nextBoundary
// in @pagecast/contracts' screen-schedule, the same functions the display runs) read for the Screens page.
import { nextBoundary, type Playing, resolvePlaying, type ScreenAssignment } from '@pagecast/contracts';

export interface NowAndNext {
  now: Playing;
  /** when what plays changes (ms), or null when it never does */
  until: number | null;
  /** what plays from `until` on (null when nothing changes) */
  next: Playing | null;
}

/** What `assignment` plays at `instant` in `timeZone`, until when, and what follows. */
export function nowAndNext(assignment: ScreenAssignment, timeZone: string, instant: number): NowAndNext {
  const now = resolvePlaying(assignment, timeZone, instant);
  const until = nextBoundary(assignment, timeZone, instant);
  return { now, until, next: until === null ? null : resolvePlaying(assignment, timeZone, until) };
}

/** The zone's offset from UTC at `instant` as "+09:00" / "-04:00" / "+00:00" (from Intl: no table to keep). */
export function zoneOffset(timeZone: string, instant: number): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(instant))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00';
}

/** Every zone the browser knows (UTC included), in name order. */
export function knownTimeZones(): string[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Tokyo', 'UTC'];
  return [...new Set([...zones, 'UTC'])].sort();
}

export interface ZoneOption {
  zone: string;
  offset: string;
  /** "(UTC+09:00) Asia/Tokyo": what the list shows and what a search matches */
  label: string;
}

export function zoneOptions(instant: number): ZoneOption[] {
  return knownTimeZones().map((zone) => {
    const offset = zoneOffset(zone, instant);
    return { zone, offset, label: `(UTC${offset}) ${zone.replaceAll('_', ' ')}` };
  });
}

/**
 * The zones matching a search: every word of it in the label (case and "_" ignored), so "tokyo", "+09" and
 * "america new" all find something. The current value stays in the list whatever is typed.
 */
export function filterZones(options: ZoneOption[], search: string, keep?: string): ZoneOption[] {
  const words = search.toLowerCase().replaceAll('_', ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return options;
  return options.filter((o) => o.zone === keep || words.every((w) => o.label.toLowerCase().includes(w)));
}

/**
 * Month arithmetic in Asia/Tokyo (UTC+9 all year: Japan has no daylight saving time). Monthly sums, renewals and
 * downgrade dates count from the 1st at 00:00 Tokyo time, whatever the server's time zone.
 */
const TOKYO_OFFSET_MS = 9 * 3600_000;

const DAY_MS = 24 * 3600_000;

/** The Tokyo calendar date of an instant, and the milliseconds since 00:00 Tokyo that day. */
function tokyoParts(now: Date): { year: number; month: number; day: number; msOfDay: number } {
  const shifted = new Date(now.getTime() + TOKYO_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    msOfDay: ((shifted.getTime() % DAY_MS) + DAY_MS) % DAY_MS,
  };
}

/** The instant of 00:00 Tokyo on the 1st of (year, month); month may overflow (13 = January next year). */
function tokyoMonthStartOf(year: number, month: number): Date {
  return new Date(Date.UTC(year, month - 1, 1) - TOKYO_OFFSET_MS);
}

/** 00:00 Tokyo on the 1st of the month `now` falls in. */
export function monthStart(now: Date): Date {
  const { year, month } = tokyoParts(now);
  return tokyoMonthStartOf(year, month);
}

/** YYYYMM of the Tokyo month `now` falls in. */
export function monthKey(now: Date): number {
  const { year, month } = tokyoParts(now);
  return year * 100 + month;
}

/** The instant month YYYYMM begins in Tokyo. */
export function monthKeyStart(key: number): Date {
  return tokyoMonthStartOf(Math.floor(key / 100), key % 100);
}

/** YYYYMM `n` months after `key` (n may be negative). */
export function addMonths(key: number, n: number): number {
  const index = Math.floor(key / 100) * 12 + (key % 100) - 1 + n;
  return Math.floor(index / 12) * 100 + (index % 12) + 1;
}

/**
 * The instant in month YYYYMM on `anchor`'s Tokyo day of the month and time of day; a month without that day uses
 * its last day (an anchor on 31 January → 28 or 29 February → 31 March).
 */
export function sameDayInMonth(anchor: Date, key: number): Date {
  const a = tokyoParts(anchor);
  const year = Math.floor(key / 100);
  const month = key % 100;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1, Math.min(a.day, lastDay)) + a.msOfDay - TOKYO_OFFSET_MS);
}

/** The Tokyo calendar date of an instant as YYYY-MM-DD. */
export function tokyoDate(at: Date): string {
  const { year, month, day } = tokyoParts(at);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Month arithmetic in Asia/Tokyo (UTC+9 all year: Japan has no daylight saving time). Monthly sums, renewals and
 * downgrade dates count from the 1st at 00:00 Tokyo time, whatever the server's time zone.
 */
const TOKYO_OFFSET_MS = 9 * 3600_000;

/** The Tokyo calendar date of an instant. */
function tokyoParts(now: Date): { year: number; month: number; day: number } {
  const shifted = new Date(now.getTime() + TOKYO_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The instant of 00:00 Tokyo on the 1st of (year, month); month may overflow (13 = January next year). */
export function tokyoMonthStartOf(year: number, month: number): Date {
  return new Date(Date.UTC(year, month - 1, 1) - TOKYO_OFFSET_MS);
}

/** 00:00 Tokyo on the 1st of the month `now` falls in. */
export function monthStart(now: Date): Date {
  const { year, month } = tokyoParts(now);
  return tokyoMonthStartOf(year, month);
}

/** 00:00 Tokyo on the 1st of the month after the one `now` falls in. */
export function nextMonthStart(now: Date): Date {
  const { year, month } = tokyoParts(now);
  return tokyoMonthStartOf(year, month + 1);
}

/** YYYYMM of the Tokyo month `now` falls in. */
export function monthKey(now: Date): number {
  const { year, month } = tokyoParts(now);
  return year * 100 + month;
}

/** YYYYMM of the month after `now`'s. */
export function nextMonthKey(now: Date): number {
  return monthKey(nextMonthStart(now));
}

/** The Tokyo date of the 1st of month YYYYMM as YYYY-MM-DD. */
export function monthKeyToDate(key: number): string {
  const year = Math.floor(key / 100);
  const month = key % 100;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

/** The instant month YYYYMM begins in Tokyo. */
export function monthKeyStart(key: number): Date {
  return tokyoMonthStartOf(Math.floor(key / 100), key % 100);
}

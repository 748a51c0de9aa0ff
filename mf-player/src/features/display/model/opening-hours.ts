// Opening hours on the display's own clock, in the screen's zone, offline too (from the manifest it keeps):
// outside them the display is black, loads and records nothing, and says it is closed. Spans start and end on whole
// minutes, so the display looks again at the next minute's start, and at least every RECHECK_MS (a clock set by hand,
// a tab woken from sleep).
import { isOpenAt, type OpeningHours } from '@pagecast/contracts';
import { useEffect, useState } from 'react';

export const OPEN_RECHECK_MS = 5000;

/** When to look at the hours again after `now`: the next whole minute (+1 ms), or sooner. */
export function nextOpenCheck(now: number): number {
  const nextMinute = (Math.floor(now / 60_000) + 1) * 60_000 + 1;
  return Math.min(nextMinute, now + OPEN_RECHECK_MS);
}

/** Whether the screen is open now, by its hours (null or absent = always) in its zone, followed on the clock. */
export function useOpenNow(hours: OpeningHours | undefined, timeZone: string): boolean {
  const key = JSON.stringify(hours ?? null);
  const [open, setOpen] = useState(() => isOpenAt(hours ?? null, timeZone, Date.now()));
  useEffect(() => {
    const spans = JSON.parse(key) as OpeningHours;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const now = Date.now();
      setOpen(isOpenAt(spans, timeZone, now));
      timer = setTimeout(tick, nextOpenCheck(now) - now);
    };
    tick();
    return () => clearTimeout(timer);
  }, [key, timeZone]);
  return open;
}

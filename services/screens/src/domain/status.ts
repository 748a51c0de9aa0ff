import {
  REPORTED_TIME_MAX_AGE_DAYS,
  REPORTED_TIME_MAX_AHEAD_SECONDS,
  SCREEN_OFFLINE_AFTER_SECONDS,
} from '@pagecast/contracts';

/** Online while heartbeats arrive; offline once one interval (plus slack) is missed. */
export function isOnline(lastSeenAt: Date | null, now: number): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() <= SCREEN_OFFLINE_AFTER_SECONDS * 1000;
}

/**
 * Whether a time a display reports (ISO) is within the sane window around the server's clock: a display's clock only
 * orders its own reports, the server dates states by its own, but 0001, 1970 or 9999 is a broken or lying display
 * and is refused rather than stored and shown back to the owner.
 */
export function reportedTimeSane(iso: string, now: number): boolean {
  const t = Date.parse(iso);
  return (
    Number.isFinite(t) &&
    t >= now - REPORTED_TIME_MAX_AGE_DAYS * 86_400_000 &&
    t <= now + REPORTED_TIME_MAX_AHEAD_SECONDS * 1000
  );
}

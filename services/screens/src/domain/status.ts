import { SCREEN_OFFLINE_AFTER_SECONDS } from '@pagecast/contracts';

/** Online while heartbeats arrive; offline once one interval (plus slack) is missed. */
export function isOnline(lastSeenAt: Date | null, now: number): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() <= SCREEN_OFFLINE_AFTER_SECONDS * 1000;
}

import type { Screen } from '@pagecast/contracts';
import type { ScreenRecord } from '../data';
import { isOnline } from '../domain';

/** A stored screen as the member sees it. */
export function presentScreen(s: ScreenRecord, now: number): Screen {
  return {
    id: s._id,
    name: s.name,
    timeZone: s.timeZone,
    assignment: s.assignment,
    pairedAt: s.pairedAt.toISOString(),
    lastSeenAt: s.lastSeenAt ? s.lastSeenAt.toISOString() : null,
    online: isOnline(s.lastSeenAt, now),
    nowPlaying: s.nowPlaying ?? null,
    appVersion: s.appVersion ?? null,
    screenSize: s.screenSize ?? null,
  };
}

import type { Screen } from '@pagecast/contracts';
import type { ScreenRecord, ScreenStatus } from '../data';
import { isOnline } from '../domain';

/** A stored screen and its display's last report (none before the first heartbeat) as the member sees them. */
export function presentScreen(s: ScreenRecord, status: ScreenStatus | null | undefined, now: number): Screen {
  return {
    id: s._id,
    name: s.name,
    timeZone: s.timeZone,
    assignment: s.assignment,
    pairedAt: s.pairedAt.toISOString(),
    lastSeenAt: status ? status.lastSeenAt.toISOString() : null,
    online: isOnline(status?.lastSeenAt ?? null, now),
    nowPlaying: status?.nowPlaying ?? null,
    appVersion: status?.appVersion ?? null,
    screenSize: status?.screenSize ?? null,
    rotation: s.rotation ?? 0,
    openingHours: s.openingHours ?? null,
    place: s.place ?? null,
  };
}

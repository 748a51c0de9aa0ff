// The Screens page hears its screens report (see lib/use-screen-status-live.ts) and reads its screens again: a freshly
// paired screen turns online, its health and last seen move, without a reload. The screens list is read at most once
// a second; the health of every screen (several pages for a large fleet, and the open incident logs) at most every 3 s.
import { isHealthQuery } from '../../../lib/health/api/health-api';
import { type GatheredRead, useScreenStatusLive } from '../../../lib/use-screen-status-live';
import { screensKey } from '../api/list-screens';

const READS: ReadonlyArray<GatheredRead> = [
  { filters: { queryKey: screensKey }, gatherMs: 1000 },
  { filters: { predicate: isHealthQuery }, gatherMs: 3000 },
];

export function useScreensLive(): void {
  useScreenStatusLive(READS);
}

// The Screens page hears its screens report (GET /api/events?screens=mine: the gateway forwards each status report
// of the member's screens as `screens.screen.status` with the screen's id) and reads its screens again: a freshly
// paired screen turns online, now playing and last seen move, without a reload. Each screen reports every 15 s: the
// reports of the next second are read together, so a member with many screens costs at most one read a second.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveUrl } from '../../../lib/events-since';
import { isHealthQuery } from '../../../lib/health/health-api';
import { screensKey } from '../api/list-screens';

export const SCREEN_STATUS_EVENT = 'screens.screen.status';
const GATHER_MS = 1000;
/** the health of every screen is several pages for a large fleet: read at most this often on reports */
const HEALTH_GATHER_MS = 3000;

export function useScreensLive(): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(liveUrl('/api/events?screens=mine'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let healthTimer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          void qc.invalidateQueries({ queryKey: screensKey });
        }, GATHER_MS);
      }
      // issue 38: the screens' health (and open incident logs) move with their reports
      if (!healthTimer) {
        healthTimer = setTimeout(() => {
          healthTimer = undefined;
          void qc.invalidateQueries({ predicate: isHealthQuery });
        }, HEALTH_GATHER_MS);
      }
    };
    source.addEventListener(SCREEN_STATUS_EVENT, refresh);
    source.addEventListener('resync', refresh);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
      if (healthTimer) clearTimeout(healthTimer);
    };
  }, [qc]);
}

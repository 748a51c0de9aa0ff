// The health reads follow the owner's status stream (GET /api/events?screens=mine, the stream the Screens page
// already reads, see screens/model/use-screens-live.ts): when it names a screen (a heartbeat with what it shows),
// the health and incident reads are read again, at most once per gathering window, so a fleet of 10,000 screens
// reporting every 15 s costs at most one read a second per open page.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveUrl } from '../events-since';
import { isHealthQuery } from './health-api';

export const SCREEN_STATUS_EVENT = 'screens.screen.status';
const GATHER_MS = 1000;

export function useHealthLive(gatherMs = GATHER_MS): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(liveUrl('/api/events?screens=mine'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ predicate: isHealthQuery });
      }, gatherMs);
    };
    source.addEventListener(SCREEN_STATUS_EVENT, refresh);
    source.addEventListener('resync', refresh);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [qc, gatherMs]);
}

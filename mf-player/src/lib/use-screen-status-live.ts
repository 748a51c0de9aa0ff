// The owner's pages hear their screens report (GET /api/events?screens=mine: the gateway forwards each status report
// of the member's screens as `screens.screen.status` with the screen's id, and says `resync` after a gap) and read
// again what moves with those reports. Each screen reports every 15 s: the reports heard within a read's gathering
// window are read together, so a member with many screens costs at most one read per window and read.
import { type InvalidateQueryFilters, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveUrl } from './events-since';

export const SCREEN_STATUS_EVENT = 'screens.screen.status';

/** A read to do again when screens report: which queries, and how long the reports are gathered first. */
export interface GatheredRead {
  readonly filters: InvalidateQueryFilters;
  readonly gatherMs: number;
}

/** Reads `reads` again as the member's screens report. `reads` should keep its identity (a constant or memoised). */
export function useScreenStatusLive(reads: ReadonlyArray<GatheredRead>): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(liveUrl('/api/events?screens=mine'));
    const timers: Array<ReturnType<typeof setTimeout> | undefined> = reads.map(() => undefined);
    const refresh = () => {
      reads.forEach((read, i) => {
        if (timers[i]) return;
        timers[i] = setTimeout(() => {
          timers[i] = undefined;
          void qc.invalidateQueries(read.filters);
        }, read.gatherMs);
      });
    };
    source.addEventListener(SCREEN_STATUS_EVENT, refresh);
    source.addEventListener('resync', refresh);
    return () => {
      source.close();
      for (const timer of timers) if (timer) clearTimeout(timer);
    };
  }, [qc, reads]);
}

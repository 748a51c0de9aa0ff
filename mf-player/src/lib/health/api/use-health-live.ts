// The health reads follow the owner's status stream (the stream the Screens page already reads, see
// ../use-screen-status-live.ts): when it names a screen (a heartbeat with what it shows), the health and incident
// reads are read again, at most once per gathering window, so a fleet of 10,000 screens reporting every 15 s costs at
// most one read a second per open page.
import { useMemo } from 'react';
import { type GatheredRead, useScreenStatusLive } from '../../use-screen-status-live';
import { isHealthQuery } from './health-api';

const GATHER_MS = 1000;

export function useHealthLive(gatherMs = GATHER_MS): void {
  const reads = useMemo<GatheredRead[]>(() => [{ filters: { predicate: isHealthQuery }, gatherMs }], [gatherMs]);
  useScreenStatusLive(reads);
}

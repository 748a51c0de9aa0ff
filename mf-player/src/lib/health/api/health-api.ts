// Fleet health reads: GET /api/screens/health (counts per state and one page of screens, filtered and
// summarised on the server) and GET /api/screens/:id/incidents (a screen's incident log). Both are read again when
// the status stream names one of the member's screens (use-health-live.ts) and at least every 15 s, since offline
// and frozen come without any heartbeat.
import {
  FLEET_HEALTH_PAGE_MAX,
  type FleetHealth,
  type FleetHealthQuery,
  type ScreenHealth,
  type ScreenGroupList,
  type ScreenIncidentList,
} from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { infiniteQueryOptions, type Query, queryOptions } from '@tanstack/react-query';
import { workspaceHeadersOf } from '../../events-since';

/** GET /api/screens/groups (the fleet page reads the same key): the group filter's choices. */
export const groupsQuery = queryOptions<ScreenGroupList>({ queryKey: ['/api/screens/groups'] });

export const HEALTH_PATH = '/api/screens/health';
/** a bad state may begin with nothing arriving (offline, frozen): read again at least this often */
export const HEALTH_REFRESH_MS = 15_000;

export type HealthFilter = Pick<FleetHealthQuery, 'state' | 'groupId' | 'q'>;

/** The path of one page of GET /api/screens/health (only the filters that are set). */
export function fleetHealthPath(filter: HealthFilter, cursor?: string | null, limit?: number): string {
  const params = new URLSearchParams();
  if (filter.state) params.set('state', filter.state);
  if (filter.groupId) params.set('groupId', filter.groupId);
  const q = filter.q?.trim();
  if (q) params.set('q', q);
  if (cursor) params.set('cursor', cursor);
  if (limit) params.set('limit', String(limit));
  const query = params.toString();
  return query ? `${HEALTH_PATH}?${query}` : HEALTH_PATH;
}

async function getJson<T>(path: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(path, { credentials: 'include', signal, headers: workspaceHeadersOf() });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

/** Every query of this module: what the live stream invalidates. */
export const isHealthQuery = (query: Query) => {
  const key = query.queryKey[0];
  return typeof key === 'string' && (key.startsWith(HEALTH_PATH) || /^\/api\/screens\/[^/]+\/incidents$/.test(key));
};

/** The fleet health view: pages of the filtered list, each with the counts (the first page's counts are shown). */
export const fleetHealthQuery = (filter: HealthFilter) =>
  infiniteQueryOptions({
    queryKey: [fleetHealthPath(filter), 'pages'],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => getJson<FleetHealth>(fleetHealthPath(filter, pageParam), signal),
    getNextPageParam: (last: FleetHealth) => last.nextCursor,
    refetchInterval: HEALTH_REFRESH_MS,
  });

/** The most pages the Screens page reads (it lists every screen; 50 × 200 = 10,000 screens). */
const ALL_PAGES_MAX = 50;

/** The Screens page: every screen's health, by screen id (pages of the unfiltered list, read through). */
export const allHealthQuery = () =>
  queryOptions({
    queryKey: [HEALTH_PATH, 'all'],
    queryFn: async ({ signal }) => {
      const byId = new Map<string, ScreenHealth>();
      let cursor: string | null = null;
      for (let i = 0; i < ALL_PAGES_MAX; i++) {
        const page: FleetHealth = await getJson<FleetHealth>(
          fleetHealthPath({}, cursor, FLEET_HEALTH_PAGE_MAX),
          signal,
        );
        for (const item of page.items) byId.set(item.screenId, item);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      return byId;
    },
    refetchInterval: HEALTH_REFRESH_MS,
  });

export const incidentsPath = (screenId: string) => `/api/screens/${encodeURIComponent(screenId)}/incidents`;
export const incidentsQuery = (screenId: string) =>
  queryOptions({
    queryKey: [incidentsPath(screenId)],
    queryFn: ({ signal }) => getJson<ScreenIncidentList>(incidentsPath(screenId), signal),
    refetchInterval: HEALTH_REFRESH_MS,
  });

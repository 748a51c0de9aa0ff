import type { DashboardStats } from '@pagecast/contracts';
import { dashboardStatsQueryKey } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/dashboard/stats (mf-files invalidates this key after every file change). */
export const dashboardStatsQuery = queryOptions<DashboardStats>({
  queryKey: dashboardStatsQueryKey,
  // a file still converting changes its badge soon: read again until none is
  refetchInterval: (query) => (query.state.data?.recentFiles.some((f) => f.status === 'processing') ? 3000 : false),
});

import type { DashboardStats } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/dashboard/stats (mf-files invalidates this key after every file change). */
export const dashboardStatsQuery = queryOptions<DashboardStats>({
  queryKey: ['/api/dashboard/stats'],
  // a file still converting changes its badge soon: read again until none is
  refetchInterval: (query) => (query.state.data?.recentFiles.some((f) => f.status === 'processing') ? 3000 : false),
});

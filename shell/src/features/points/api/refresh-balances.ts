import { currentUserQueryKey, dashboardStatsQueryKey, membershipQueryKey, pointsSummaryQueryKey } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Every read that shows points or the plan: after a purchase, upgrade or downgrade change they are read again
 * (spec point 4: "related queries are refreshed"). The history's key is named here, not imported, because a
 * feature never imports another feature; the shared keys come from @pagecast/ui.
 */
export function refreshBalances(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [
      currentUserQueryKey,
      ['/api/points/history'],
      pointsSummaryQueryKey,
      membershipQueryKey,
      dashboardStatsQueryKey,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

import { currentUserQueryKey, pointsSummaryQueryKey } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Every read that shows points or the plan: after a purchase, upgrade or downgrade change they are read again
 * (spec point 4: "related queries are refreshed"). The dashboard's key is named here, not imported, because a
 * feature never imports another feature.
 */
export function refreshBalances(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [
      currentUserQueryKey,
      ['/api/points/history'],
      pointsSummaryQueryKey,
      ['/api/membership/status'],
      ['/api/dashboard/stats'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

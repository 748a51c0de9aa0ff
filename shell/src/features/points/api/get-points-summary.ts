import type { PointsSummary } from '@pagecast/contracts';
import { pointsSummaryQueryKey } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/points/summary: balance and the three monthly sums (since the 1st, Asia/Tokyo) of the four cards. */
export const pointsSummaryQuery = queryOptions<PointsSummary>({ queryKey: pointsSummaryQueryKey });

import type { PointsSummary } from '@pagecast/contracts';
import { pointsSummaryQueryKey } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/points/summary (billing owns the balance; the user object's copy follows by event, a moment later). */
export const pointsSummaryQuery = queryOptions<PointsSummary>({ queryKey: pointsSummaryQueryKey });

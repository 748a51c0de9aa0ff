import type { PointsSummary } from '@pagecast/contracts';
import { pointsSummaryQueryKey } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/points/summary (billing, the ledger's owner): balance, earned and spent since the 1st (Asia/Tokyo). */
export const pointsSummaryQuery = queryOptions<PointsSummary>({ queryKey: pointsSummaryQueryKey });

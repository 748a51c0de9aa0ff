import type { PointsSummary } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/points/summary (billing, the ledger's owner): balance, earned and spent since the 1st (Asia/Tokyo). */
export const pointsSummaryQuery = queryOptions<PointsSummary>({ queryKey: ['/api/points/summary'] });

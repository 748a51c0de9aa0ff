import type { PointsSummary } from '@pagecast/contracts';
import { pointsSummaryQueryKey } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/**
 * GET /api/points/summary: billing's own balance. The user object's copy follows billing's events a moment later, so
 * right after buying points it can still be the old figure; the purchase buttons read billing's.
 */
export const balanceQuery = queryOptions<PointsSummary>({ queryKey: pointsSummaryQueryKey });

import type { PointsHistory } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/points/history: the member's ledger rows, newest first. */
export const pointsHistoryQuery = queryOptions<PointsHistory>({ queryKey: ['/api/points/history'] });

import type { ScheduleDowngradeRequest, ScheduleDowngradeResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshBalances } from './refresh-balances';

/** POST /api/membership/schedule-downgrade: reserved, effective on the 1st of next month. */
export async function scheduleDowngrade(body: ScheduleDowngradeRequest): Promise<ScheduleDowngradeResponse> {
  const res = await apiRequest('POST', '/api/membership/schedule-downgrade', body);
  return (await res.json()) as ScheduleDowngradeResponse;
}

export function useScheduleDowngrade() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: scheduleDowngrade, onSettled: () => refreshBalances(queryClient) });
}

import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshBalances } from './refresh-balances';

/** DELETE /api/membership/cancel-downgrade */
export async function cancelDowngrade(): Promise<void> {
  await apiRequest('DELETE', '/api/membership/cancel-downgrade');
}

export function useCancelDowngrade() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelDowngrade, onSettled: () => refreshBalances(queryClient) });
}

import type { MigrateAccountRequest, MigrateAccountResponse } from '@pagecast/contracts';
import {
  apiRequest,
  currentUserQueryKey,
  followBalance,
  type MutationCallbacks,
  pointsSummaryQueryKey,
} from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** POST /api/auth/migrate-account: old external login → local password, with the migration bonus. */
export async function migrateAccount(body: MigrateAccountRequest): Promise<MigrateAccountResponse> {
  const res = await apiRequest('POST', '/api/auth/migrate-account', body);
  return (await res.json()) as MigrateAccountResponse;
}

/**
 * The answer's user replaces the cached one. Billing grants the bonus on account's event, a moment after this
 * answer: the balance is read until it shows.
 */
export function useMigrateAccount(callbacks: MutationCallbacks<MigrateAccountResponse, MigrateAccountRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: migrateAccount,
    onSuccess: (data, variables) => {
      const before = queryClient.getQueryData<{ balance: number }>(pointsSummaryQueryKey)?.balance;
      queryClient.setQueryData(currentUserQueryKey, data.user);
      if (before !== undefined) void followBalance(queryClient, before + data.migrationBonus);
      return callbacks.onSuccess?.(data, variables);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

import type { UpgradeMembershipRequest, UpgradeMembershipResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshBalances } from './refresh-balances';

/** POST /api/membership/upgrade: at once, paid with points. */
export async function upgradeMembership(body: UpgradeMembershipRequest): Promise<UpgradeMembershipResponse> {
  const res = await apiRequest('POST', '/api/membership/upgrade', body);
  return (await res.json()) as UpgradeMembershipResponse;
}

export function useUpgradeMembership() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: upgradeMembership, onSettled: () => refreshBalances(queryClient) });
}

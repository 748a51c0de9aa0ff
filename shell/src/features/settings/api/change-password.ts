import type { ChangePasswordRequest, OkResponse } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** PUT /api/user/password: local accounts; every other session of the user ends. */
export async function changePassword(body: ChangePasswordRequest): Promise<OkResponse> {
  const res = await apiRequest('PUT', '/api/user/password', body);
  return (await res.json()) as OkResponse;
}

export function useChangePassword(callbacks: MutationCallbacks<OkResponse, ChangePasswordRequest> = {}) {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

import type { OkResponse, RequestPasswordResetRequest } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/auth/request-password-reset: same answer whether or not the address exists. */
export async function requestPasswordReset(body: RequestPasswordResetRequest): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/auth/request-password-reset', body);
  return (await res.json()) as OkResponse;
}

export function useRequestPasswordReset(callbacks: MutationCallbacks<OkResponse, RequestPasswordResetRequest> = {}) {
  return useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

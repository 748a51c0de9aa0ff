import type { OkResponse, ResendVerificationRequest } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/auth/resend-verification: a new link replaces the previous one. */
export async function resendVerification(body: ResendVerificationRequest): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/auth/resend-verification', body);
  return (await res.json()) as OkResponse;
}

export function useResendVerification(callbacks: MutationCallbacks<OkResponse, ResendVerificationRequest> = {}) {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

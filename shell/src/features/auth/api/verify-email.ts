import type { VerifyEmailRequest, VerifyEmailResponse } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/auth/verify-email: a token is used once. */
export async function verifyEmail(body: VerifyEmailRequest): Promise<VerifyEmailResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-email', body);
  return (await res.json()) as VerifyEmailResponse;
}

export function useVerifyEmail(callbacks: MutationCallbacks<VerifyEmailResponse, VerifyEmailRequest> = {}) {
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

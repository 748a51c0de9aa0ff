import type { OkResponse, ResetPasswordRequest } from '@pagecast/contracts';
import { apiRequest, currentUserQueryKey, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** POST /api/auth/reset-password: token and new password (the confirmation is never sent). */
export async function resetPassword(body: ResetPasswordRequest): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/auth/reset-password', body);
  return (await res.json()) as OkResponse;
}

export function useResetPassword(callbacks: MutationCallbacks<OkResponse, ResetPasswordRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: async (data, variables) => {
      // A reset ends every session: the cached user (if any) is out of date.
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      return callbacks.onSuccess?.(data, variables);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

import type { LocalLoginRequest, LocalLoginResponse } from '@pagecast/contracts';
import { apiRequest, currentUserQueryKey, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** POST /api/auth/local-login; a 403 for an unverified address comes back as HttpError with data.requiresVerification. */
export async function localLogin(body: LocalLoginRequest): Promise<LocalLoginResponse> {
  const res = await apiRequest('POST', '/api/auth/local-login', body);
  return (await res.json()) as LocalLoginResponse;
}

/** The session's user is cached from the answer and read again before the page moves on. */
export function useLocalLogin(callbacks: MutationCallbacks<LocalLoginResponse, LocalLoginRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: localLogin,
    onSuccess: async (data, variables) => {
      queryClient.setQueryData(currentUserQueryKey, data.user);
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      return callbacks.onSuccess?.(data, variables);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

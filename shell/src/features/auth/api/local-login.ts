import type { LocalLoginRequest, LocalLoginResponse } from '@pagecast/contracts';
import { apiRequest, currentUserQuery, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** POST /api/auth/local-login; a 403 for an unverified address comes back as HttpError with data.requiresVerification. */
export async function localLogin(body: LocalLoginRequest): Promise<LocalLoginResponse> {
  const res = await apiRequest('POST', '/api/auth/local-login', body);
  return (await res.json()) as LocalLoginResponse;
}

/** The session's member is read (GET /api/auth/user, with points and plan) before the page moves on. */
export function useLocalLogin(callbacks: MutationCallbacks<LocalLoginResponse, LocalLoginRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: localLogin,
    onSuccess: async (data, variables) => {
      // fetched whether or not a reader is mounted: the cache holds null (anonymous) until now
      await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 });
      return callbacks.onSuccess?.(data, variables);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

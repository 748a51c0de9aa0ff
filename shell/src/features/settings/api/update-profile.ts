import type { CurrentUser, UpdateProfileRequest } from '@pagecast/contracts';
import { apiRequest, currentUserQueryKey, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** PUT /api/user/profile: answers the updated user. */
export async function updateProfile(body: UpdateProfileRequest): Promise<CurrentUser> {
  const res = await apiRequest('PUT', '/api/user/profile', body);
  return (await res.json()) as CurrentUser;
}

/** The answer is the updated user: it replaces the cached one at once. */
export function useUpdateProfile(callbacks: MutationCallbacks<CurrentUser, UpdateProfileRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (updated, variables) => {
      queryClient.setQueryData(currentUserQueryKey, updated);
      return callbacks.onSuccess?.(updated, variables);
    },
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

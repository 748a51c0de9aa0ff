import type { OkResponse } from '@pagecast/contracts';
import { apiRequest, currentUserQueryKey, type SessionUser } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/** POST /api/auth/mark-welcome-seen (empty body). */
export async function markWelcomeSeen(): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/auth/mark-welcome-seen', {});
  return (await res.json()) as OkResponse;
}

export function useMarkWelcomeSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markWelcomeSeen,
    onSuccess: () =>
      queryClient.setQueryData<SessionUser | null>(currentUserQueryKey, (old) =>
        old ? { ...old, hasSeenWelcome: true } : old,
      ),
  });
}

import type { FileSummary, UpdateDurationRequest } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedFile } from './refresh-files';

/** PUT /api/files/:id/duration */
export async function updateDuration(id: string, body: UpdateDurationRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/duration`, body);
  return (await res.json()) as FileSummary;
}

export function useUpdateDuration(id: string, callbacks: MutationCallbacks<FileSummary, UpdateDurationRequest> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDurationRequest) => updateDuration(id, body),
    onSuccess: (file, body) => {
      showChangedFile(queryClient, file);
      return callbacks.onSuccess?.(file, body);
    },
    onError: (error, body) => callbacks.onError?.(error, body),
  });
}

import type { FileSummary, UpdateDisplayModeRequest } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedFile } from './refresh-files';

/** PUT /api/files/:id/display-mode */
export async function updateDisplayMode(id: string, body: UpdateDisplayModeRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/display-mode`, body);
  return (await res.json()) as FileSummary;
}

export function useUpdateDisplayMode(
  id: string,
  callbacks: MutationCallbacks<FileSummary, UpdateDisplayModeRequest> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDisplayModeRequest) => updateDisplayMode(id, body),
    onSuccess: (file, body) => {
      showChangedFile(queryClient, file);
      return callbacks.onSuccess?.(file, body);
    },
    onError: (error, body) => callbacks.onError?.(error, body),
  });
}

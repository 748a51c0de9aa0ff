import type { FileSummary, PublishSettingsRequest } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedFile } from './refresh-files';

/** PUT /api/files/:id/publish */
export async function updatePublishSettings(id: string, body: PublishSettingsRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/publish`, body);
  return (await res.json()) as FileSummary;
}

export function useUpdatePublishSettings(
  id: string,
  callbacks: MutationCallbacks<FileSummary, PublishSettingsRequest> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishSettingsRequest) => updatePublishSettings(id, body),
    onSuccess: (file, body) => {
      showChangedFile(queryClient, file);
      return callbacks.onSuccess?.(file, body);
    },
    onError: (error, body) => callbacks.onError?.(error, body),
  });
}

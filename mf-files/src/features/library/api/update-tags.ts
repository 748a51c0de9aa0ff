import type { FileSummary } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedFile } from './refresh-files';

/** PUT /api/files/:id with the tags (the interface sends only them). */
export async function updateTags(id: string, tags: string[]): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}`, { tags });
  return (await res.json()) as FileSummary;
}

export function useUpdateTags(id: string, callbacks: MutationCallbacks<FileSummary, string[]> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tags: string[]) => updateTags(id, tags),
    onSuccess: (file, tags) => {
      showChangedFile(queryClient, file);
      return callbacks.onSuccess?.(file, tags);
    },
    onError: (error, tags) => callbacks.onError?.(error, tags),
  });
}

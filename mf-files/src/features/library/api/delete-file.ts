import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dropDeletedFile } from './refresh-files';

/** DELETE /api/files/:id */
export async function deleteFile(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/files/${encodeURIComponent(id)}`);
}

/** The file's id is the mutation's variable. */
export function useDeleteFile(callbacks: MutationCallbacks<void, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (data, id) => {
      dropDeletedFile(queryClient, id);
      return callbacks.onSuccess?.(data, id);
    },
    onError: (error, id) => callbacks.onError?.(error, id),
  });
}

import type { FileList, FileSummary } from '@pagecast/contracts';
import { dashboardStatsQueryKey } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';
import { fileQuery } from './get-file';
import { filesQueryKey } from './list-files';

/** After a change to one file: its card shows the answer at once, then the list and the dashboard are read again. */
export function showChangedFile(queryClient: QueryClient, file: FileSummary): void {
  queryClient.setQueryData<FileList>(filesQueryKey, (list) => list?.map((f) => (f.id === file.id ? file : f)));
  void queryClient.invalidateQueries({ queryKey: filesQueryKey });
  void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
}

/** After a delete: the card goes at once, then the list and the dashboard are read again. */
export function dropDeletedFile(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<FileList>(filesQueryKey, (list) => list?.filter((f) => f.id !== id));
  void queryClient.invalidateQueries({ queryKey: filesQueryKey });
  void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
}

/** After an upload: the lists are read again, and the new file is known at once to the dialog that follows it. */
export function showUploadedFile(queryClient: QueryClient, file: FileSummary): void {
  void queryClient.invalidateQueries({ queryKey: filesQueryKey });
  void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
  queryClient.setQueryData(fileQuery(file.id).queryKey, file);
}

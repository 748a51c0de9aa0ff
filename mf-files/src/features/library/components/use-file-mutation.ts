import type { FileList, FileSummary } from '@pagecast/contracts';
import { describeError, toast } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSessionExpired } from '@pagecast/ui';
import { dashboardStatsQueryKey, filesQueryKey } from '../api/list-files';

/**
 * A change to one file: on success the card shows the answer at once and the lists are read again; the toasts
 * are the spec's (point 8), a 401 goes to /login or, for display mode and tags, to /api/login.
 */
export function useFileMutation<T>(options: {
  mutate: (input: T) => Promise<FileSummary>;
  success: string;
  failure: string;
  unauthorizedVia?: 'login' | 'api-login';
  onSuccess?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessionExpired = useSessionExpired();
  return useMutation({
    mutationFn: options.mutate,
    onSuccess: (file) => {
      queryClient.setQueryData<FileList>(filesQueryKey, (list) => list?.map((f) => (f.id === file.id ? file : f)));
      void queryClient.invalidateQueries({ queryKey: filesQueryKey });
      void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
      toast({ title: t(options.success) });
      options.onSuccess?.();
    },
    onError: (error) => {
      if (sessionExpired(error, options.unauthorizedVia)) return;
      const fallback = t(options.failure);
      const message = describeError(error, t, fallback);
      toast({
        title: fallback,
        description: message === fallback ? undefined : message,
        variant: 'destructive',
      });
    },
  });
}

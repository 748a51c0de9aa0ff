import type { FileSummary } from '@pagecast/contracts';
import { describeError, type MutationCallbacks, toast, useSessionExpired } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';

/**
 * The toasts of a change to one file (spec point 8), for the api/ hooks' callbacks; a 401 goes to /login or, for
 * display mode and tags, to /api/login.
 */
export function useFileToasts<TVariables>(options: {
  success: string;
  failure: string;
  unauthorizedVia?: 'login' | 'api-login';
  onSuccess?: () => void;
}): MutationCallbacks<FileSummary, TVariables> {
  const { t } = useTranslation();
  const sessionExpired = useSessionExpired();
  return {
    onSuccess: () => {
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
  };
}

import {
  currentUserQueryKey,
  isUnauthorizedError,
  LOGIN_REDIRECT_DELAY_MS,
  rememberReturnPage,
  toast,
} from '@pagecast/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

/**
 * Spec point 8: a call answered '401: …Unauthorized' (the session ended, e.g. after a password change elsewhere)
 * shows 'Unauthorized / You are logged out. Logging in again...' and goes to /login after 500 ms, the page
 * remembered. Returns a handler that says whether it took care of the error.
 */
export function useSessionExpired(): (error: unknown) => boolean {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  return (error) => {
    if (!isUnauthorizedError(error)) return false;
    rememberReturnPage(`${location.pathname}${location.search}`);
    toast({
      title: t('toasts.unauthorizedTitle'),
      description: t('toasts.unauthorizedDescription'),
      variant: 'destructive',
    });
    setTimeout(() => {
      navigate('/login');
      // Then the route table switches to the signed-out one (the cached user is gone).
      queryClient.setQueryData(currentUserQueryKey, null);
    }, LOGIN_REDIRECT_DELAY_MS);
    return true;
  };
}

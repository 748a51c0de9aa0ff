import { toast } from '../toast/toast-store';
import { currentUserQueryKey } from './current-user';
import { isUnauthorizedError } from './http';
import { LOGIN_REDIRECT_DELAY_MS } from './require-login';
import { rememberReturnPage } from './return-page';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { useLocation, useNavigate } from '@pagecast/router';

/**
 * Spec point 8: a call answered '401: …Unauthorized' shows 'Unauthorized / You are logged out. Logging in
 * again...' and after 500 ms goes to /login (the page remembered), or with `via: 'api-login'` (display-mode and
 * tag updates) to /api/login by a full-page navigation. Returns whether it took care of the error.
 */
export function useSessionExpired(): (error: unknown, via?: 'login' | 'api-login') => boolean {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  return (error, via = 'login') => {
    if (!isUnauthorizedError(error)) return false;
    rememberReturnPage(`${location.pathname}${location.search}`);
    toast({
      title: t('toasts.unauthorizedTitle'),
      description: t('toasts.unauthorizedDescription'),
      variant: 'destructive',
    });
    setTimeout(() => {
      if (via === 'api-login') {
        window.location.assign('/api/login');
        return;
      }
      navigate('/login');
      queryClient.setQueryData(currentUserQueryKey, null);
    }, LOGIN_REDIRECT_DELAY_MS);
    return true;
  };
}

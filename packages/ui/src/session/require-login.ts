import { constants } from '@pagecast/contracts';
import { useEffect } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useLocation, useNavigate } from '@pagecast/router';
import { toast } from '../toast/toast-store';
import { useAuth } from './current-user';
import { rememberReturnPage } from './return-page';

export const LOGIN_REDIRECT_DELAY_MS: number = constants.redirectDelaysMs.loginRequired;

/**
 * For pages that need a signed-in user (dashboard, files, marketplace, points): a visitor has the current path
 * remembered, sees 'ログインが必要です' and is taken to /login after 500 ms (spec point 2).
 */
export function useRequireLogin(options: { delayMs?: number } = {}) {
  const auth = useAuth();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const delayMs = options.delayMs ?? LOGIN_REDIRECT_DELAY_MS;
  const mustLeave = !auth.isLoading && !auth.user && !auth.error;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per arrival on the page, not again when the language or navigate changes
  useEffect(() => {
    if (!mustLeave) return;
    rememberReturnPage(`${location.pathname}${location.search}`);
    toast({ title: t('toasts.loginRequired'), variant: 'destructive' });
    const timer = setTimeout(() => navigate('/login'), delayMs);
    return () => clearTimeout(timer);
  }, [mustLeave, location.pathname]);

  return { ...auth, allowed: Boolean(auth.user) };
}

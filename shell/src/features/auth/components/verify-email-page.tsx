import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  describeError,
  HttpError,
  Spinner,
  toast,
} from '@pagecast/ui';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link, useSearchParams } from '@pagecast/router';
import { useResendVerification } from '../api/resend-verification';
import { useVerifyEmail } from '../api/verify-email';

/** Tokens already sent in this page's life: a token is single-use, a remount must not send it again. */
const autoVerified = new Set<string>();

/** A server answer gives its message (or the fallback); no answer at all (network) gives the other text. */
function failureText(error: unknown, t: TFunction, serverFallback: string, networkFallback: string): string {
  return error instanceof HttpError ? describeError(error, t, serverFallback) : networkFallback;
}

/**
 * E-mail verification (spec points 2, 4, 8): states pending, success, error; with a token it runs by itself.
 * Pending offers a verify button and, when the e-mail is known, a resend button.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';

  const verify = useVerifyEmail({
    onSuccess: (data) => toast({ title: t('toasts.verifySuccess'), description: data.message }),
    onError: (error) =>
      toast({
        title: t('toasts.errorTitle'),
        description: failureText(error, t, t('toasts.verifyFailed'), t('toasts.verifyNetworkError')),
        variant: 'destructive',
      }),
  });

  const resend = useResendVerification({
    onSuccess: (data) => toast({ title: t('toasts.verificationResent'), description: data.message }),
    onError: (error) =>
      toast({
        title: t('toasts.errorTitle'),
        description: failureText(error, t, t('toasts.resendFailed'), t('toasts.resendNetworkError')),
        variant: 'destructive',
      }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per token
  useEffect(() => {
    if (!token || autoVerified.has(token)) return;
    autoVerified.add(token);
    verify.mutate({ token });
  }, [token]);

  const onVerify = () => {
    if (!token) {
      toast({ title: t('toasts.errorTitle'), description: t('toasts.verifyMissingToken'), variant: 'destructive' });
      return;
    }
    verify.mutate({ token });
  };
  const onResend = () => {
    if (!email) {
      toast({ title: t('toasts.errorTitle'), description: t('toasts.resendNoEmail'), variant: 'destructive' });
      return;
    }
    resend.mutate({ email });
  };

  const state = verify.isSuccess ? 'success' : verify.isError ? 'error' : 'pending';
  const resendButton = (
    <Button variant="outline" loading={resend.isPending} onClick={onResend} data-testid="verify-resend">
      {resend.isPending ? t('auth.verifyEmail.resending') : t('auth.verifyEmail.resend')}
    </Button>
  );

  return (
    <div className="pc-center" data-testid="verify-email-page" data-state={state}>
      <Card className="pc-state-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.verifyEmail.title')}</h1>
        </CardHeader>
        {state === 'success' ? (
          <>
            <CardContent className="pc-stack">
              <CardTitle>
                <span aria-hidden="true">✓ </span>
                {t('auth.verifyEmail.successTitle')}
              </CardTitle>
              <CardDescription>{verify.data?.message ?? t('auth.verifyEmail.successDescription')}</CardDescription>
            </CardContent>
            <CardFooter>
              <Link to="/login" className={buttonClass('primary', 'md')} data-testid="verify-to-login">
                {t('auth.verifyEmail.goToLogin')}
              </Link>
            </CardFooter>
          </>
        ) : state === 'error' ? (
          <>
            <CardContent className="pc-stack">
              <CardTitle>
                <span aria-hidden="true">⚠ </span>
                {t('auth.verifyEmail.errorTitle')}
              </CardTitle>
              <CardDescription>{t('auth.verifyEmail.errorDescription')}</CardDescription>
            </CardContent>
            <CardFooter className="pc-row">
              {resendButton}
              <Link to="/login" className={buttonClass('ghost', 'md')}>
                {t('auth.verifyEmail.backToLogin')}
              </Link>
            </CardFooter>
          </>
        ) : (
          <>
            <CardContent className="pc-stack">
              {verify.isPending ? <Spinner label={t('auth.verifyEmail.verifying')} /> : null}
              <CardDescription>
                {email ? t('auth.verifyEmail.pendingWithEmail', { email }) : t('auth.verifyEmail.pendingDescription')}
              </CardDescription>
            </CardContent>
            <CardFooter className="pc-row">
              <Button loading={verify.isPending} onClick={onVerify} data-testid="verify-submit">
                {t('auth.verifyEmail.verify')}
              </Button>
              {email ? resendButton : null}
              <Link to="/login" className={buttonClass('ghost', 'md')}>
                {t('auth.verifyEmail.backToLogin')}
              </Link>
            </CardFooter>
          </>
        )}
      </Card>
    </div>
  );
}

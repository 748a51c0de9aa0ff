import { zodResolver } from '@hookform/resolvers/zod';
import { LoginForm } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  describeError,
  HttpError,
  Input,
  PasswordInput,
  takeReturnPage,
  toast,
  WELCOME_OWED_STATE,
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate } from '@pagecast/router';
import type { z } from 'zod';
import { useLocalLogin } from '../api/local-login';
import { type LoginWait, loginWait } from '../model/login-wait';

/**
 * Login (spec points 2, 4, 8): first login → /welcome, unless a page was carried for this address past its
 * registration (an invitation's: the verification may have opened another tab), which comes first and owes the
 * welcome; else the remembered page (once); else /. An unverified address (403 requiresVerification) goes to
 * /verify-email with its e-mail.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<z.input<typeof LoginForm>, unknown, z.output<typeof LoginForm>>({
    resolver: zodResolver(LoginForm),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;
  /** what a 429 said to wait, worded in the page's language (the sign-in throttle) */
  const [wait, setWait] = useState<LoginWait | undefined>(undefined);

  const login = useLocalLogin({
    onSuccess: (data, variables) => {
      toast({ title: t('toasts.loginSuccess') });
      if (data.isFirstLogin) {
        const carried = takeReturnPage(variables.email, { firstSignIn: true });
        return carried ? navigate(carried, { state: WELCOME_OWED_STATE }) : navigate('/welcome');
      }
      navigate(takeReturnPage(variables.email) ?? '/');
    },
    onError: (error) => {
      if (error instanceof HttpError && error.status === 403 && error.data?.requiresVerification) {
        toast({
          title: t('toasts.verificationRequired'),
          description: describeError(error, t, t('toasts.verificationRequired')),
          variant: 'destructive',
        });
        const email = typeof error.data.email === 'string' ? error.data.email : form.getValues('email');
        navigate(`/verify-email?email=${encodeURIComponent(email)}`);
        return;
      }
      const throttled = loginWait(error);
      if (throttled) {
        setWait(throttled);
        toast({
          title: t('auth.login.throttledTitle'),
          description: t(throttled.key, { count: throttled.count }),
          variant: 'destructive',
        });
        return;
      }
      toast({
        title: t('toasts.loginFailed'),
        description: describeError(error, t, t('toasts.loginFailedFallback')),
        variant: 'destructive',
      });
    },
  });

  return (
    <div className="pc-center" data-testid="login-page">
      <Card className="pc-auth-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.login.title')}</h1>
          <CardDescription>{t('auth.login.subtitle')}</CardDescription>
        </CardHeader>
        <form
          noValidate
          onSubmit={form.handleSubmit((values) => {
            setWait(undefined);
            login.mutate(values);
          })}
        >
          <CardContent className="pc-stack">
            {wait ? (
              <p
                role="alert"
                data-testid="login-wait"
                className="pc-card"
                style={{ borderColor: 'var(--pc-warning)', background: 'var(--pc-warning-soft)', padding: '0.75rem' }}
              >
                {t(wait.key, { count: wait.count })}
              </p>
            ) : null}
            <Field id="login-email" label={t('auth.email')} error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="email"
                {...fieldAria('login-email', errors.email?.message)}
                {...form.register('email')}
              />
            </Field>
            <Field id="login-password" label={t('auth.password')} error={errors.password?.message}>
              <PasswordInput
                autoComplete="current-password"
                {...fieldAria('login-password', errors.password?.message)}
                {...form.register('password')}
              />
            </Field>
            <div style={{ textAlign: 'right' }}>
              <Link to="/request-password-reset">{t('auth.login.forgotPassword')}</Link>
            </div>
            <Button type="submit" size="lg" loading={login.isPending} data-testid="login-submit">
              {login.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
            </Button>
          </CardContent>
        </form>
        <CardFooter style={{ flexDirection: 'column', alignItems: 'center' }}>
          <span className="pc-muted">
            {t('auth.login.noAccount')} <Link to="/register">{t('auth.login.register')}</Link>
          </span>
          <Link to="/">{t('common.backHome')}</Link>
        </CardFooter>
      </Card>
    </div>
  );
}

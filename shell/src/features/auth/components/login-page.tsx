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
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate } from '@pagecast/router';
import type { z } from 'zod';
import { useLocalLogin } from '../api/local-login';

/**
 * Login (spec points 2, 4, 8): first login → /welcome; else the remembered page (once); else /. An unverified
 * address (403 requiresVerification) goes to /verify-email with its e-mail.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<z.input<typeof LoginForm>, unknown, z.output<typeof LoginForm>>({
    resolver: zodResolver(LoginForm),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const login = useLocalLogin({
    onSuccess: (data) => {
      toast({ title: t('toasts.loginSuccess') });
      if (data.isFirstLogin) return navigate('/welcome');
      navigate(takeReturnPage() ?? '/');
    },
    onError: (error) => {
      if (error instanceof HttpError && error.status === 403 && error.data?.requiresVerification) {
        toast({ title: t('toasts.verificationRequired'), description: error.serverMessage, variant: 'destructive' });
        const email = typeof error.data.email === 'string' ? error.data.email : form.getValues('email');
        navigate(`/verify-email?email=${encodeURIComponent(email)}`);
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
        <form noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))}>
          <CardContent className="pc-stack">
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

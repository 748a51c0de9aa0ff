import { zodResolver } from '@hookform/resolvers/zod';
import { constants, ResetPasswordForm } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  describeError,
  PasswordInput,
  toast,
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate, useSearchParams } from '@pagecast/router';
import type { z } from 'zod';
import { useResetPassword } from '../api/reset-password';

/**
 * Password reset (spec points 2, 4, 8): the token comes from the query string; without one, '無効なリンク' and
 * /request-password-reset. Success → 'パスワード変更完了', the current user refreshed, /login after 2000 ms.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const form = useForm<z.input<typeof ResetPasswordForm>, unknown, z.output<typeof ResetPasswordForm>>({
    resolver: zodResolver(ResetPasswordForm),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per arrival without a token, not on a language change
  useEffect(() => {
    if (token) return;
    toast({ title: t('toasts.invalidLink'), description: t('toasts.invalidLinkDescription'), variant: 'destructive' });
    navigate('/request-password-reset', { replace: true });
  }, [token]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const mutation = useResetPassword({
    onSuccess: () => {
      toast({ title: t('toasts.passwordChanged'), description: t('toasts.passwordResetDescription') });
      timer.current = setTimeout(() => navigate('/login'), constants.redirectDelaysMs.afterPasswordReset);
    },
    onError: (error) => {
      toast({
        title: t('toasts.resetFailed'),
        description: describeError(error, t, t('toasts.resetFailedFallback')),
        variant: 'destructive',
      });
    },
  });

  if (!token) return null;
  return (
    <div className="pc-center" data-testid="reset-password-page">
      <Card className="pc-auth-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.resetPassword.title')}</h1>
          <CardDescription>
            {mutation.isSuccess ? t('auth.resetPassword.done') : t('auth.resetPassword.subtitle')}
          </CardDescription>
        </CardHeader>
        {mutation.isSuccess ? null : (
          <form
            noValidate
            onSubmit={form.handleSubmit((values) => mutation.mutate({ token, newPassword: values.newPassword }))}
          >
            <CardContent className="pc-stack">
              <Field
                id="reset-new-password"
                label={t('auth.newPassword')}
                error={errors.newPassword?.message}
                hint={t('auth.passwordHint', { min: constants.minPasswordLength })}
              >
                <PasswordInput
                  autoComplete="new-password"
                  {...fieldAria('reset-new-password', errors.newPassword?.message, true)}
                  {...form.register('newPassword')}
                />
              </Field>
              <Field
                id="reset-confirm-password"
                label={t('auth.confirmPassword')}
                error={errors.confirmPassword?.message}
              >
                <PasswordInput
                  autoComplete="new-password"
                  {...fieldAria('reset-confirm-password', errors.confirmPassword?.message)}
                  {...form.register('confirmPassword')}
                />
              </Field>
              <Button type="submit" size="lg" loading={mutation.isPending} data-testid="reset-submit">
                {mutation.isPending ? t('auth.resetPassword.submitting') : t('auth.resetPassword.submit')}
              </Button>
            </CardContent>
          </form>
        )}
        <CardFooter style={{ flexDirection: 'column', alignItems: 'center' }}>
          <Link to="/request-password-reset">{t('auth.resetPassword.requestNewLink')}</Link>
          <Link to="/login">{t('auth.requestPasswordReset.backToLogin')}</Link>
        </CardFooter>
      </Card>
    </div>
  );
}

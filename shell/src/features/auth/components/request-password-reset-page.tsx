import { zodResolver } from '@hookform/resolvers/zod';
import { RequestPasswordResetForm } from '@pagecast/contracts';
import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  describeError,
  Input,
  toast,
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { Link, useSearchParams } from '@pagecast/router';
import type { z } from 'zod';
import { useRequestPasswordReset } from '../api/request-password-reset';

/**
 * Password-reset request (spec points 2, 8): e-mail, then a confirmation with 'send again' and back to login. The
 * address comes filled in from `?email=` (the mail to someone whose address was registered again links here).
 */
export function RequestPasswordResetPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<z.input<typeof RequestPasswordResetForm>, unknown, z.output<typeof RequestPasswordResetForm>>({
    resolver: zodResolver(RequestPasswordResetForm),
    defaultValues: { email: params.get('email') ?? '' },
  });
  const { errors } = form.formState;

  const mutation = useRequestPasswordReset({
    onSuccess: (_data, variables) => {
      toast({ title: t('toasts.resetRequested'), description: t('toasts.resetRequestedDescription') });
      setSentTo(variables.email);
    },
    onError: (error) => {
      toast({
        title: t('toasts.resetRequestFailed'),
        description: describeError(error, t, t('toasts.resetRequestFailedFallback')),
        variant: 'destructive',
      });
    },
  });

  return (
    <div className="pc-center" data-testid="request-password-reset-page">
      <Card className="pc-auth-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.requestPasswordReset.title')}</h1>
          <CardDescription>
            {sentTo ? t('auth.requestPasswordReset.sentTitle') : t('auth.requestPasswordReset.subtitle')}
          </CardDescription>
        </CardHeader>
        {sentTo ? (
          <CardContent className="pc-stack" data-testid="reset-request-sent">
            <p style={{ margin: 0 }}>{t('auth.requestPasswordReset.sentDescription', { email: sentTo })}</p>
            <p className="pc-muted" style={{ margin: 0, fontSize: '0.9rem' }}>
              {t('auth.requestPasswordReset.sentHint')}
            </p>
            <Button
              variant="outline"
              loading={mutation.isPending}
              data-testid="reset-send-again"
              onClick={() => mutation.mutate({ email: sentTo })}
            >
              {t('auth.requestPasswordReset.sendAgain')}
            </Button>
            <Link to="/login" className={buttonClass('primary', 'md')}>
              {t('auth.requestPasswordReset.backToLogin')}
            </Link>
          </CardContent>
        ) : (
          <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
            <CardContent className="pc-stack">
              <Field id="reset-request-email" label={t('auth.email')} error={errors.email?.message}>
                <Input
                  type="email"
                  autoComplete="email"
                  {...fieldAria('reset-request-email', errors.email?.message)}
                  {...form.register('email')}
                />
              </Field>
              <Button type="submit" size="lg" loading={mutation.isPending} data-testid="reset-request-submit">
                {mutation.isPending ? t('auth.requestPasswordReset.submitting') : t('auth.requestPasswordReset.submit')}
              </Button>
            </CardContent>
          </form>
        )}
        <CardFooter style={{ flexDirection: 'column', alignItems: 'center' }}>
          <span className="pc-muted">
            {t('auth.requestPasswordReset.rememberPassword')} <Link to="/login">{t('auth.login.submit')}</Link>
          </span>
          <span className="pc-muted">
            {t('auth.login.noAccount')} <Link to="/register">{t('auth.login.register')}</Link>
          </span>
        </CardFooter>
      </Card>
    </div>
  );
}

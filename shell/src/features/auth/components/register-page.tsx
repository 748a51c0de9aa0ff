import { zodResolver } from '@hookform/resolvers/zod';
import { constants, RegisterForm } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  describeError,
  Input,
  PasswordInput,
  toast,
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate } from '@pagecast/router';
import type { z } from 'zod';
import { useRegister } from '../api/register';

/** Registration (spec points 2, 4, 8): success → '登録完了' and /verify-email?email=…. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<z.input<typeof RegisterForm>, unknown, z.output<typeof RegisterForm>>({
    resolver: zodResolver(RegisterForm),
    defaultValues: { lastName: '', firstName: '', email: '', password: '' },
  });
  const { errors } = form.formState;

  const mutation = useRegister({
    onSuccess: (data) => {
      toast({ title: t('toasts.registerSuccess'), description: t('toasts.registerSuccessDescription') });
      navigate(`/verify-email?email=${encodeURIComponent(data.email)}`);
    },
    onError: (error) => {
      toast({
        title: t('toasts.registerFailed'),
        description: describeError(error, t, t('toasts.registerFailedFallback')),
        variant: 'destructive',
      });
    },
  });

  return (
    <div className="pc-center" data-testid="register-page">
      <Card className="pc-auth-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.register.title')}</h1>
          <CardDescription>{t('auth.register.subtitle')}</CardDescription>
        </CardHeader>
        <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
          <CardContent className="pc-stack">
            <div className="pc-row" style={{ alignItems: 'flex-start', flexWrap: 'nowrap' }}>
              <div style={{ flex: 1 }}>
                <Field id="register-last-name" label={t('auth.lastName')} error={errors.lastName?.message}>
                  <Input
                    autoComplete="family-name"
                    {...fieldAria('register-last-name', errors.lastName?.message)}
                    {...form.register('lastName')}
                  />
                </Field>
              </div>
              <div style={{ flex: 1 }}>
                <Field id="register-first-name" label={t('auth.firstName')} error={errors.firstName?.message}>
                  <Input
                    autoComplete="given-name"
                    {...fieldAria('register-first-name', errors.firstName?.message)}
                    {...form.register('firstName')}
                  />
                </Field>
              </div>
            </div>
            <Field id="register-email" label={t('auth.email')} error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="email"
                {...fieldAria('register-email', errors.email?.message)}
                {...form.register('email')}
              />
            </Field>
            <Field
              id="register-password"
              label={t('auth.password')}
              error={errors.password?.message}
              hint={t('auth.passwordHint', { min: constants.minPasswordLength })}
            >
              <PasswordInput
                autoComplete="new-password"
                {...fieldAria('register-password', errors.password?.message, true)}
                {...form.register('password')}
              />
            </Field>
            <p className="pc-muted" style={{ fontSize: '0.85rem', margin: 0 }}>
              {t('auth.register.agreementBefore')}
              <Link to="/terms">{t('auth.register.terms')}</Link>
              {t('auth.register.agreementAnd')}
              <Link to="/privacy">{t('auth.register.privacy')}</Link>
              {t('auth.register.agreementAfter')}
            </p>
            <Button type="submit" size="lg" loading={mutation.isPending} data-testid="register-submit">
              {mutation.isPending ? t('auth.register.submitting') : t('auth.register.submit')}
            </Button>
          </CardContent>
        </form>
        <CardFooter style={{ flexDirection: 'column', alignItems: 'center' }}>
          <span className="pc-muted">
            {t('auth.register.haveAccount')} <Link to="/login">{t('auth.register.login')}</Link>
          </span>
          <Link to="/">{t('common.backHome')}</Link>
        </CardFooter>
      </Card>
    </div>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { constants, type MigrateAccountRequest, MigrateAccountForm } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  describeError,
  IconAlert,
  PasswordInput,
  toast,
  useAuth,
  Field,
  fieldAria,
  useSessionExpired,
} from '@pagecast/ui';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { useNavigate } from '@pagecast/router';
import type { z } from 'zod';
import { useMigrateAccount } from '../api/migrate-account';

const benefits = ['independent', 'bonus', 'safer', 'dataKept'] as const;
const warnings = ['oldLogin', 'passwordRequired', 'irreversible'] as const;

/**
 * Account migration (spec points 2, 8): only for the old external login; anyone else gets 'サービス移行完了' and
 * goes to /. Password and confirmation (12+), a final confirmation dialog, then '移行完了' with the bonus.
 */
export function MigrateAccountPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const sessionExpired = useSessionExpired();
  const { user } = useAuth();
  const [pending, setPending] = useState<MigrateAccountRequest | null>(null);
  const justMigrated = useRef(false);
  const form = useForm<z.input<typeof MigrateAccountForm>, unknown, z.output<typeof MigrateAccountForm>>({
    resolver: zodResolver(MigrateAccountForm),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const provider = user?.authProvider;

  // biome-ignore lint/correctness/useExhaustiveDependencies: decided once per arrival, not on a language change
  useEffect(() => {
    if (!provider || provider === 'external' || justMigrated.current) return;
    toast({ title: t('toasts.alreadyMigrated'), description: t('toasts.alreadyMigratedDescription') });
    navigate('/', { replace: true });
  }, [provider]);

  const mutation = useMigrateAccount({
    onSuccess: (data) => {
      // set in the same tick as the hook caches the migrated user, before the provider effect sees it
      justMigrated.current = true;
      setPending(null);
      toast({
        title: t('toasts.migrated'),
        description: t('toasts.migratedDescription', { points: data.migrationBonus.toLocaleString(i18n.language) }),
      });
      navigate('/');
    },
    onError: (error) => {
      setPending(null);
      if (sessionExpired(error)) return;
      toast({
        title: t('toasts.migrateFailed'),
        description: describeError(error, t, t('toasts.migrateFailedFallback')),
        variant: 'destructive',
      });
    },
  });

  if (!user || provider !== 'external') return null;
  const name = [user.lastName, user.firstName].filter(Boolean).join(' ');

  return (
    <div className="pc-container pc-page" data-testid="migrate-account-page">
      <div className="pc-stack" style={{ maxWidth: 760, margin: '0 auto' }}>
        <div>
          <h1 className="pc-page__title">{t('auth.migrate.title')}</h1>
          <p className="pc-page__subtitle">{t('auth.migrate.subtitle')}</p>
        </div>
        <CurrentAccount email={user.email} name={name} />
        <WhatChanges />
        <Card>
          <CardHeader>
            <CardTitle>{t('auth.migrate.passwordTitle')}</CardTitle>
            <CardDescription>{t('auth.passwordHint', { min: constants.minPasswordLength })}</CardDescription>
          </CardHeader>
          <form noValidate onSubmit={form.handleSubmit((values) => setPending(values))}>
            <CardContent className="pc-stack">
              <Field id="migrate-password" label={t('auth.password')} error={errors.password?.message}>
                <PasswordInput
                  autoComplete="new-password"
                  placeholder={t('auth.passwordHint', { min: constants.minPasswordLength })}
                  {...fieldAria('migrate-password', errors.password?.message)}
                  {...form.register('password')}
                />
              </Field>
              <Field id="migrate-confirm" label={t('auth.confirmPassword')} error={errors.confirmPassword?.message}>
                <PasswordInput
                  autoComplete="new-password"
                  {...fieldAria('migrate-confirm', errors.confirmPassword?.message)}
                  {...form.register('confirmPassword')}
                />
              </Field>
              <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
                <Button type="submit" loading={mutation.isPending} data-testid="migrate-submit">
                  {t('auth.migrate.submit')}
                </Button>
              </div>
            </CardContent>
          </form>
        </Card>
      </div>
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open && !mutation.isPending) setPending(null);
        }}
        title={t('auth.migrate.confirmTitle')}
        description={t('auth.migrate.confirmDescription')}
        footer={
          <>
            <Button variant="ghost" disabled={mutation.isPending} onClick={() => setPending(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={mutation.isPending}
              data-testid="migrate-confirm-button"
              onClick={() => pending && mutation.mutate(pending)}
            >
              {mutation.isPending ? t('auth.migrate.migrating') : t('auth.migrate.confirm')}
            </Button>
          </>
        }
      />
    </div>
  );
}

/** What the move brings (the migration bonus among it) and what to know before it. */
function WhatChanges() {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Card data-testid="migrate-benefits">
        <CardHeader>
          <CardTitle>{t('auth.migrate.benefitsTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {benefits.map((key) => (
              <li key={key}>
                {t(`auth.migrate.benefits.${key}`, {
                  points: constants.migrationBonusPoints.toLocaleString(i18n.language),
                })}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card
        data-testid="migrate-warnings"
        style={{ borderColor: 'var(--pc-warning)', background: 'var(--pc-warning-soft)' }}
      >
        <CardHeader>
          <CardTitle>
            <IconAlert className="pc-title-icon" />
            {t('auth.migrate.warningsTitle')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {warnings.map((key) => (
              <li key={key}>{t(`auth.migrate.warnings.${key}`)}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}

/** The account being moved: its address, name and way of signing in. */
function CurrentAccount({ email, name }: { email: string; name: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('auth.migrate.currentAccount')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="pc-stack" style={{ margin: 0, gap: 8 }} data-testid="migrate-current">
          {[
            [t('auth.email'), email],
            [t('auth.migrate.name'), name || '—'],
            [t('settings.account.authMethod'), t('settings.account.authExternal')],
          ].map(([label, value]) => (
            <div key={label} style={{ display: 'grid', gridTemplateColumns: 'minmax(120px, 200px) 1fr', gap: 12 }}>
              <dt className="pc-muted">{label}</dt>
              <dd style={{ margin: 0 }}>{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

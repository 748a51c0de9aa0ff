import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordForm, constants } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  describeError,
  HttpError,
  PasswordInput,
  toast,
  Field,
  fieldAria,
  useSessionExpired,
} from '@pagecast/ui';
import type { TFunction } from 'i18next';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import type { z } from 'zod';
import { useChangePassword } from '../api/change-password';

/**
 * Spec point 8: the server's message, or the issue messages joined by commas, or the fallback. Our server's
 * VALIDATION message is the generic one, so there the issues (translated) are the useful text.
 */
export function passwordChangeErrorText(error: unknown, t: TFunction): string {
  const fallback = t('toasts.passwordChangeFailedFallback');
  if (!(error instanceof HttpError)) return fallback;
  const issues = Array.isArray(error.data?.issues) ? (error.data.issues as Array<Record<string, unknown>>) : [];
  const issueTexts = issues
    .map((issue) => {
      const text = typeof issue.message === 'string' ? issue.message : '';
      return typeof issue.key === 'string' ? t(issue.key, { defaultValue: text }) : text;
    })
    .filter(Boolean);
  if (error.code !== 'VALIDATION' && error.serverMessage) return describeError(error, t, fallback);
  if (issueTexts.length > 0) return issueTexts.join(', ');
  return describeError(error, t, fallback);
}

/** Password change (spec point 2), local accounts only: current, new and confirmation, each with a toggle. */
export function PasswordCard() {
  const { t } = useTranslation();
  const sessionExpired = useSessionExpired();
  const form = useForm<z.input<typeof ChangePasswordForm>, unknown, z.output<typeof ChangePasswordForm>>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const mutation = useChangePassword({
    onSuccess: () => {
      form.reset();
      toast({ title: t('toasts.passwordChanged'), description: t('toasts.passwordChangedDescription') });
    },
    onError: (error) => {
      if (sessionExpired(error)) return;
      toast({
        title: t('toasts.passwordChangeFailed'),
        description: passwordChangeErrorText(error, t),
        variant: 'destructive',
      });
    },
  });

  return (
    <Card data-testid="password-card">
      <CardHeader>
        <CardTitle>{t('settings.password.title')}</CardTitle>
        <CardDescription>{t('settings.password.description', { min: constants.minPasswordLength })}</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <CardContent className="pc-stack">
          <Field id="password-current" label={t('settings.password.current')} error={errors.currentPassword?.message}>
            <PasswordInput
              autoComplete="current-password"
              {...fieldAria('password-current', errors.currentPassword?.message)}
              {...form.register('currentPassword')}
            />
          </Field>
          <Field
            id="password-new"
            label={t('settings.password.new')}
            error={errors.newPassword?.message}
            hint={t('auth.passwordHint', { min: constants.minPasswordLength })}
          >
            <PasswordInput
              autoComplete="new-password"
              {...fieldAria('password-new', errors.newPassword?.message, true)}
              {...form.register('newPassword')}
            />
          </Field>
          <Field id="password-confirm" label={t('settings.password.confirm')} error={errors.confirmPassword?.message}>
            <PasswordInput
              autoComplete="new-password"
              {...fieldAria('password-confirm', errors.confirmPassword?.message)}
              {...form.register('confirmPassword')}
            />
          </Field>
          <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
            <Button type="submit" loading={mutation.isPending} data-testid="password-submit">
              {mutation.isPending ? t('settings.password.submitting') : t('settings.password.submit')}
            </Button>
          </div>
        </CardContent>
      </form>
    </Card>
  );
}

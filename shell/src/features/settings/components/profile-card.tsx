import { zodResolver } from '@hookform/resolvers/zod';
import { Locale, ProfileForm } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  type SessionUser,
  toast,
  Field,
  fieldAria,
  useSessionExpired,
} from '@pagecast/ui';
import { useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { languages, useTranslation } from '@pagecast/i18n';
import type { z } from 'zod';
import { useUpdateProfile } from '../api/update-profile';

type ProfileFields = z.input<typeof ProfileForm>;

/** The member's e-mail language as account stores it (null for an account stored without one). */
const localeOf = (user: SessionUser): Locale | null => Locale.safeParse(user.locale).data ?? null;

/** The form's values; an account without an e-mail language is offered the page's. */
const fieldsOf = (user: SessionUser, pageLanguage: string | undefined): ProfileFields => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  profileImageUrl: user.profileImageUrl ?? '',
  locale: localeOf(user) ?? Locale.safeParse(pageLanguage).data,
});

/**
 * Profile (spec point 2): first name, last name, picture URL, and the language of the member's e-mails;
 * read first, an edit toggle, save or cancel.
 */
export function ProfileCard({ user }: { user: SessionUser }) {
  const { t, i18n } = useTranslation();
  const pageLanguage = i18n.resolvedLanguage;
  const sessionExpired = useSessionExpired();
  const [editing, setEditing] = useState(false);
  const form = useForm<ProfileFields, unknown, z.output<typeof ProfileForm>>({
    resolver: zodResolver(ProfileForm),
    defaultValues: fieldsOf(user, pageLanguage),
  });
  const { errors } = form.formState;

  const mutation = useUpdateProfile({
    onSuccess: (updated) => {
      form.reset(fieldsOf(updated, pageLanguage));
      setEditing(false);
      toast({ title: t('toasts.profileUpdated'), description: t('toasts.profileUpdatedDescription') });
    },
    onError: (error) => {
      if (sessionExpired(error)) return;
      toast({
        title: t('toasts.profileUpdateFailed'),
        description: t('toasts.profileUpdateFailedDescription'),
        variant: 'destructive',
      });
    },
  });

  const cancel = () => {
    form.reset(fieldsOf(user, pageLanguage));
    setEditing(false);
  };

  return (
    <Card data-testid="profile-card">
      <CardHeader className="pc-row" style={{ justifyContent: 'space-between', flexDirection: 'row' }}>
        <div>
          <CardTitle>{t('settings.profile.title')}</CardTitle>
          <CardDescription>{t('settings.profile.description')}</CardDescription>
        </div>
        {editing ? null : (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)} data-testid="profile-edit">
            {t('settings.profile.edit')}
          </Button>
        )}
      </CardHeader>
      {editing ? (
        <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
          <CardContent className="pc-stack">
            <div className="pc-row" style={{ alignItems: 'flex-start' }}>
              <div style={{ flex: 1, minWidth: 200 }}>
                <Field id="profile-last-name" label={t('auth.lastName')} error={errors.lastName?.message}>
                  <Input
                    autoComplete="family-name"
                    {...fieldAria('profile-last-name', errors.lastName?.message)}
                    {...form.register('lastName')}
                  />
                </Field>
              </div>
              <div style={{ flex: 1, minWidth: 200 }}>
                <Field id="profile-first-name" label={t('auth.firstName')} error={errors.firstName?.message}>
                  <Input
                    autoComplete="given-name"
                    {...fieldAria('profile-first-name', errors.firstName?.message)}
                    {...form.register('firstName')}
                  />
                </Field>
              </div>
            </div>
            <Field
              id="profile-image-url"
              label={t('settings.profile.imageUrl')}
              error={errors.profileImageUrl?.message}
              hint={t('settings.profile.imageUrlHint')}
            >
              <Input
                type="url"
                inputMode="url"
                placeholder="https://"
                {...fieldAria('profile-image-url', errors.profileImageUrl?.message, true)}
                {...form.register('profileImageUrl')}
              />
            </Field>
            <EmailLanguageField form={form} />
            <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
              <Button variant="ghost" onClick={cancel} disabled={mutation.isPending} data-testid="profile-cancel">
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={mutation.isPending} data-testid="profile-save">
                {mutation.isPending ? t('common.saving') : t('common.save')}
              </Button>
            </div>
          </CardContent>
        </form>
      ) : (
        <ProfileSummary user={user} />
      )}
    </Card>
  );
}

/** The language the account's e-mails are written in. */
function EmailLanguageField({ form }: { form: UseFormReturn<ProfileFields, unknown, z.output<typeof ProfileForm>> }) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  return (
    <Field
      id="profile-email-language"
      label={t('settings.profile.emailLanguage')}
      error={errors.locale?.message}
      hint={t('settings.profile.emailLanguageHint')}
    >
      <select
        className="pc-select"
        data-testid="profile-email-language"
        {...fieldAria('profile-email-language', errors.locale?.message, true)}
        {...form.register('locale')}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`common.languages.${language}`)}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The profile as saved, when it is not being edited. */
function ProfileSummary({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  return (
    <CardContent>
      <dl className="pc-stack" style={{ margin: 0, gap: 10 }}>
        <ReadOnly label={t('auth.lastName')} value={user.lastName} testId="profile-last-name-value" />
        <ReadOnly label={t('auth.firstName')} value={user.firstName} testId="profile-first-name-value" />
        <ReadOnly label={t('settings.profile.imageUrl')} value={user.profileImageUrl} />
        <ReadOnly
          label={t('settings.profile.emailLanguage')}
          value={localeOf(user) ? t(`common.languages.${localeOf(user)}`) : null}
          testId="profile-email-language-value"
        />
      </dl>
    </CardContent>
  );
}

export function ReadOnly({ label, value, testId }: { label: string; value: unknown; testId?: string }) {
  const { t } = useTranslation();
  const text = value === null || value === undefined || value === '' ? t('settings.notSet') : String(value);
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(120px, 200px) 1fr', gap: 12 }}>
      <dt className="pc-muted">{label}</dt>
      <dd style={{ margin: 0, wordBreak: 'break-all' }} data-testid={testId}>
        {text}
      </dd>
    </div>
  );
}

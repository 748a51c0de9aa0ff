import { zodResolver } from '@hookform/resolvers/zod';
import { ContactForm, constants } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  Input,
  toast,
  useAuth,
  Field,
  fieldAria,
} from '@pagecast/ui';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import type { z } from 'zod';
import { useSendContactMessage } from '../api/send-contact-message';

/** The support address shown on the page (the spec does not reproduce the real one). */
export const SUPPORT_EMAIL = 'support@pagecast.example';

/** Contact (spec points 2, 5, 8): name, e-mail, subject, message (10+); for visitors and members. */
export function ContactPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const initial = () => ({
    name: user ? [user.lastName, user.firstName].filter(Boolean).join(' ') : '',
    email: user?.email ?? '',
    subject: '',
    message: '',
  });
  const form = useForm<z.input<typeof ContactForm>, unknown, z.output<typeof ContactForm>>({
    resolver: zodResolver(ContactForm),
    defaultValues: initial(),
  });
  const { errors } = form.formState;

  const mutation = useSendContactMessage({
    onSuccess: () => {
      form.reset(initial());
      toast({ title: t('toasts.contactSent'), description: t('toasts.contactSentDescription') });
    },
    onError: () => {
      toast({
        title: t('toasts.contactFailed'),
        description: t('toasts.contactFailedDescription'),
        variant: 'destructive',
      });
    },
  });

  return (
    <div className="pc-container pc-page" data-testid="contact-page">
      <Card style={{ maxWidth: 640, margin: '0 auto' }}>
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.contact.title')}</h1>
          <CardDescription>{t('auth.contact.subtitle')}</CardDescription>
          <p className="pc-muted" style={{ margin: 0 }}>
            {t('auth.contact.supportEmail')}{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`} data-testid="support-email">
              {SUPPORT_EMAIL}
            </a>
          </p>
        </CardHeader>
        <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
          <CardContent className="pc-stack">
            <Field id="contact-name" label={t('auth.contact.name')} error={errors.name?.message}>
              <Input
                autoComplete="name"
                {...fieldAria('contact-name', errors.name?.message)}
                {...form.register('name')}
              />
            </Field>
            <Field id="contact-email" label={t('auth.email')} error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="email"
                {...fieldAria('contact-email', errors.email?.message)}
                {...form.register('email')}
              />
            </Field>
            <Field id="contact-subject" label={t('auth.contact.subject')} error={errors.subject?.message}>
              <Input {...fieldAria('contact-subject', errors.subject?.message)} {...form.register('subject')} />
            </Field>
            <Field
              id="contact-message"
              label={t('auth.contact.message')}
              error={errors.message?.message}
              hint={t('auth.contact.messageHint', { min: constants.contactMessage.minLength })}
            >
              <textarea
                className="pc-input"
                rows={6}
                style={{ resize: 'vertical', minHeight: 140 }}
                {...fieldAria('contact-message', errors.message?.message, true)}
                {...form.register('message')}
              />
            </Field>
            <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
              <Button type="submit" loading={mutation.isPending} data-testid="contact-submit">
                {mutation.isPending ? t('auth.contact.submitting') : t('auth.contact.submit')}
              </Button>
            </div>
          </CardContent>
        </form>
      </Card>
    </div>
  );
}

import type { FileSummary, PublishPrice } from '@pagecast/contracts';
import { Button, Dialog, FieldError, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { fileCopyrightQuery } from '../api/get-file-copyright';
import { useUpdatePublishSettings } from '../api/update-publish-settings';
import { copyrightToSend, knownPlanPrice } from '../model/file-rules';
import { CopyrightFields, type CopyrightValues } from './copyright-fields';
import { PricePlanPicker } from './price-plan-picker';
import { useFileToasts } from './use-file-toasts';

interface PublishValues extends CopyrightValues {
  isPublished: boolean;
  plan: PublishPrice | undefined;
}

/** Publish settings: the toggle, a price plan (required to publish) and the copyright info. */
export function PublishSettingsDialog({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const copyright = useQuery(fileCopyrightQuery(file.id));
  const form = useForm<PublishValues>({
    defaultValues: {
      isPublished: file.isPublished,
      plan: knownPlanPrice(file.publishPrice),
      authorName: '',
      companyName: '',
      copyrightText: '',
    },
  });
  const plan = form.watch('plan');
  const errors = form.formState.errors;

  // The file's copyright info, or the member's default author profile (the API answers either).
  useEffect(() => {
    if (!copyright.data) return;
    form.setValue('authorName', copyright.data.authorName ?? '');
    form.setValue('companyName', copyright.data.companyName ?? '');
    form.setValue('copyrightText', copyright.data.copyrightText ?? '');
  }, [copyright.data, form]);

  const mutation = useUpdatePublishSettings(
    file.id,
    useFileToasts({
      success: 'files.toasts.publishUpdated',
      failure: 'files.toasts.publishFailed',
      onSuccess: onClose,
    }),
  );

  const save = () => {
    form.clearErrors();
    const values = form.getValues();
    const info = copyrightToSend(values);
    const planMissing = values.isPublished && values.plan === undefined;
    if (planMissing) form.setError('plan', { message: t('validation.pricePlanRequired') });
    if (info && !info.authorName) form.setError('authorName', { message: t('validation.authorNameRequired') });
    if (planMissing || (info && !info.authorName)) return;
    const price = knownPlanPrice(values.plan);
    mutation.mutate({
      isPublished: values.isPublished,
      ...(price !== undefined ? { publishPrice: price } : {}),
      ...(info ? { copyrightInfo: info } : {}),
    });
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      title={t('files.publish.title')}
      description={file.title}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={save} loading={mutation.isPending} data-testid="publish-save">
            {t('files.publish.save')}
          </Button>
        </>
      }
    >
      <div className="pc-stack" data-testid="publish-dialog">
        <label className="pf-toggle">
          <input type="checkbox" {...form.register('isPublished')} data-testid="publish-toggle" />
          <span>{t('files.publish.toggle')}</span>
        </label>
        <div className="pc-stack">
          <strong>{t('files.plans.title')}</strong>
          <PricePlanPicker value={plan} onChange={(p) => form.setValue('plan', p)} name={`${ids}-plan`} />
          <FieldError>{errors.plan?.message}</FieldError>
        </div>
        <div className="pc-stack">
          <strong>{t('files.copyright.title')}</strong>
          {copyright.isLoading ? <Spinner size="sm" /> : null}
          <CopyrightFields
            idPrefix={ids}
            fields={{
              authorName: form.register('authorName'),
              companyName: form.register('companyName'),
              copyrightText: form.register('copyrightText'),
            }}
            authorError={errors.authorName?.message}
          />
        </div>
      </div>
    </Dialog>
  );
}

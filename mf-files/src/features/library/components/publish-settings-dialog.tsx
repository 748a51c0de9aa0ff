import type { FileSummary, PublishPrice } from '@pagecast/contracts';
import { Button, Dialog, FieldError, Input, Label, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileCopyrightQuery } from '../api/get-file-copyright';
import { updatePublishSettings } from '../api/update-publish-settings';
import { copyrightToSend, knownPlanPrice } from '../model/file-rules';
import { PricePlanPicker } from './price-plan-picker';
import { useFileMutation } from './use-file-mutation';

/** Publish settings: the toggle, a price plan (required to publish) and the copyright info. */
export function PublishSettingsDialog({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const copyright = useQuery(fileCopyrightQuery(file.id));
  const [published, setPublished] = useState(file.isPublished);
  const [plan, setPlan] = useState<PublishPrice | undefined>(knownPlanPrice(file.publishPrice));
  const [authorName, setAuthorName] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [copyrightText, setCopyrightText] = useState('');
  const [errors, setErrors] = useState<{ plan?: string; author?: string }>({});

  // The file's copyright info, or the member's default author profile (the API answers either).
  useEffect(() => {
    if (!copyright.data) return;
    setAuthorName(copyright.data.authorName ?? '');
    setCompanyName(copyright.data.companyName ?? '');
    setCopyrightText(copyright.data.copyrightText ?? '');
  }, [copyright.data]);

  const mutation = useFileMutation({
    mutate: updatePublishSettings.bind(null, file.id),
    success: 'files.toasts.publishUpdated',
    failure: 'files.toasts.publishFailed',
    onSuccess: onClose,
  });

  const save = () => {
    const info = copyrightToSend({ authorName, companyName, copyrightText });
    const next: typeof errors = {};
    if (published && plan === undefined) next.plan = t('validation.pricePlanRequired');
    if (info && !info.authorName) next.author = t('validation.authorNameRequired');
    setErrors(next);
    if (next.plan || next.author) return;
    const price = knownPlanPrice(plan);
    mutation.mutate({
      isPublished: published,
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
          <input
            type="checkbox"
            checked={published}
            onChange={(e) => setPublished(e.target.checked)}
            data-testid="publish-toggle"
          />
          <span>{t('files.publish.toggle')}</span>
        </label>
        <div className="pc-stack">
          <strong>{t('files.plans.title')}</strong>
          <PricePlanPicker value={plan} onChange={setPlan} name={`${ids}-plan`} />
          <FieldError>{errors.plan}</FieldError>
        </div>
        <div className="pc-stack">
          <strong>{t('files.copyright.title')}</strong>
          {copyright.isLoading ? <Spinner size="sm" /> : null}
          <div className="pc-field">
            <Label htmlFor={`${ids}-author`}>{t('files.copyright.authorName')}</Label>
            <Input id={`${ids}-author`} value={authorName} onChange={(e) => setAuthorName(e.target.value)} />
            <FieldError>{errors.author}</FieldError>
          </div>
          <div className="pc-field">
            <Label htmlFor={`${ids}-company`}>{t('files.copyright.companyName')}</Label>
            <Input id={`${ids}-company`} value={companyName} onChange={(e) => setCompanyName(e.target.value)} />
          </div>
          <div className="pc-field">
            <Label htmlFor={`${ids}-copyright`}>{t('files.copyright.copyrightText')}</Label>
            <textarea
              id={`${ids}-copyright`}
              className="pc-input"
              rows={2}
              value={copyrightText}
              onChange={(e) => setCopyrightText(e.target.value)}
            />
          </div>
        </div>
      </div>
    </Dialog>
  );
}

import { Field, fieldAria, Input } from '@pagecast/ui';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';

export interface CopyrightValues {
  authorName: string;
  companyName: string;
  copyrightText: string;
}

/** The copyright info fields (spec: author required when any is given), shared by the upload and publish dialogs. */
export function CopyrightFields({
  idPrefix,
  fields,
  authorError,
}: {
  idPrefix: string;
  /** each field's react-hook-form registration */
  fields: Record<keyof CopyrightValues, UseFormRegisterReturn>;
  authorError?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field id={`${idPrefix}-author`} label={t('files.copyright.authorName')} error={authorError}>
        <Input {...fieldAria(`${idPrefix}-author`, authorError)} {...fields.authorName} />
      </Field>
      <Field id={`${idPrefix}-company`} label={t('files.copyright.companyName')}>
        <Input id={`${idPrefix}-company`} {...fields.companyName} />
      </Field>
      <Field id={`${idPrefix}-copyright`} label={t('files.copyright.copyrightText')}>
        <textarea id={`${idPrefix}-copyright`} className="pc-input" rows={2} {...fields.copyrightText} />
      </Field>
    </>
  );
}

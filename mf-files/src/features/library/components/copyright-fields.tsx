import { FieldError, Input, Label } from '@pagecast/ui';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

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
      <div className="pc-field">
        <Label htmlFor={`${idPrefix}-author`}>{t('files.copyright.authorName')}</Label>
        <Input id={`${idPrefix}-author`} {...fields.authorName} />
        <FieldError>{authorError}</FieldError>
      </div>
      <div className="pc-field">
        <Label htmlFor={`${idPrefix}-company`}>{t('files.copyright.companyName')}</Label>
        <Input id={`${idPrefix}-company`} {...fields.companyName} />
      </div>
      <div className="pc-field">
        <Label htmlFor={`${idPrefix}-copyright`}>{t('files.copyright.copyrightText')}</Label>
        <textarea id={`${idPrefix}-copyright`} className="pc-input" rows={2} {...fields.copyrightText} />
      </div>
    </>
  );
}

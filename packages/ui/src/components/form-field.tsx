import { FieldError, Label } from './form';
import type { ReactNode } from 'react';
import { useTranslation } from '@pagecast/i18n';

/** aria props of the input of a Field: invalid state and the ids of its hint and error texts. */
export function fieldAria(id: string, error: string | undefined, hint?: boolean) {
  const described = [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined } as const;
}

/**
 * A labelled form field; `error` is the zod message of the contracts' schema, an i18n key ('validation.*'),
 * shown under the field in the current language.
 */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="pc-field" data-field={id}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p className="pc-muted" id={`${id}-hint`} style={{ fontSize: '0.85rem', margin: 0 }}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error ? t(error, { defaultValue: error }) : undefined}</FieldError>
    </div>
  );
}

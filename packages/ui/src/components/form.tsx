import { forwardRef, type InputHTMLAttributes, type LabelHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...rest },
  ref,
) {
  return <input ref={ref} className={['pc-input', className].filter(Boolean).join(' ')} {...rest} />;
});

export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: htmlFor comes from the caller
  return <label className={['pc-label', className].filter(Boolean).join(' ')} {...rest} />;
}

/** The message under a field; role=alert so screen readers hear it. */
export function FieldError({ children, id }: { children?: ReactNode; id?: string }) {
  if (!children) return null;
  return (
    <p className="pc-field-error" role="alert" id={id}>
      {children}
    </p>
  );
}

/** A password field with a show/hide toggle (spec point 2). */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  function PasswordInput({ className, ...rest }, ref) {
    const { t } = useTranslation();
    const [visible, setVisible] = useState(false);
    return (
      <div className="pc-password">
        <input
          ref={ref}
          type={visible ? 'text' : 'password'}
          className={['pc-input', className].filter(Boolean).join(' ')}
          {...rest}
        />
        <button
          type="button"
          className="pc-password__toggle"
          aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? (
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                fill="currentColor"
                d="M2.1 3.5 3.5 2.1l18.4 18.4-1.4 1.4-3.3-3.3A10.8 10.8 0 0 1 12 20C6.5 20 2.7 15.6 1.5 12c.6-1.7 1.8-3.6 3.5-5.1L2.1 3.5Zm5.3 5.3A4.9 4.9 0 0 0 7 12a5 5 0 0 0 7.2 4.6l-1.6-1.6A3 3 0 0 1 9 12c0-.2 0-.5.1-.7L7.4 8.8ZM12 4c5.5 0 9.3 4.4 10.5 8-.5 1.4-1.4 3-2.7 4.3l-3-3A5 5 0 0 0 10.7 7.2L8.6 5A10.9 10.9 0 0 1 12 4Z"
              />
            </svg>
          ) : (
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                fill="currentColor"
                d="M12 4c5.5 0 9.3 4.4 10.5 8-1.2 3.6-5 8-10.5 8S2.7 15.6 1.5 12C2.7 8.4 6.5 4 12 4Zm0 3a5 5 0 1 0 0 10 5 5 0 0 0 0-10Zm0 2a3 3 0 1 1 0 6 3 3 0 0 1 0-6Z"
              />
            </svg>
          )}
        </button>
      </div>
    );
  },
);

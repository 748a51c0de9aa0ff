import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from '@pagecast/i18n';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** wider content (forms, lists) */
  size?: 'sm' | 'md' | 'lg';
}

const tabbableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/** What Tab can reach inside `root`, in document order (hidden and disabled controls left out). */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(tabbableSelector)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
}

/** Keeps Tab and Shift+Tab inside the open dialog: from the last control to the first and back (WCAG 2.4.3). */
function trapTab(e: KeyboardEvent, root: HTMLElement) {
  const items = tabbables(root);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) {
    e.preventDefault();
    root.focus();
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof Node && root.contains(active);
  if (e.shiftKey && (active === first || active === root || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog: Escape and the backdrop close it, focus moves inside, Tab stays inside, and focus returns to
 * what had it before when the dialog closes.
 */
export function Dialog({ open, onOpenChange, title, description, children, footer, size = 'md' }: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  // the latest handler, so that a new function from each parent render does not re-run the focus effect
  const onOpenChangeRef = useRef(onOpenChange);
  onOpenChangeRef.current = onOpenChange;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const focusable = panel.current?.querySelector<HTMLElement>(
      'input, select, textarea, button:not(.pc-dialog__close), [href], [tabindex]:not([tabindex="-1"])',
    );
    (focusable ?? panel.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onOpenChangeRef.current(false);
      else if (e.key === 'Tab' && panel.current) trapTab(e, panel.current);
    };
    // a press on the backdrop itself (not inside the panel) closes
    const onDown = (e: MouseEvent) => {
      if (e.target === backdrop.current) onOpenChangeRef.current(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="pc-dialog-backdrop" ref={backdrop}>
      <div
        ref={panel}
        className={`pc-dialog pc-dialog--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <div className="pc-dialog__header">
          <h2 id={titleId} className="pc-dialog__title">
            {title}
          </h2>
          <button
            type="button"
            className="pc-dialog__close"
            aria-label={t('common.close')}
            onClick={() => onOpenChange(false)}
          >
            ×
          </button>
        </div>
        {description ? (
          <p id={descriptionId} className="pc-dialog__description">
            {description}
          </p>
        ) : null}
        {children ? <div className="pc-dialog__body">{children}</div> : null}
        {footer ? <div className="pc-dialog__footer">{footer}</div> : null}
      </div>
    </div>
  );
}

/** Alias: the spec calls them modals. */
export const Modal = Dialog;

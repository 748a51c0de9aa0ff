import { type PointerEvent, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { dismissToast, getToasts, shouldDismissOnSwipe, subscribeToasts, type ToastItem, toast } from './toast-store';

export function useToast() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return { toasts, toast, dismiss: dismissToast };
}

function ToastCard({ item }: { item: ToastItem }) {
  const { t } = useTranslation();
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    start.current = e.clientX;
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    setOffset(Math.max(0, e.clientX - start.current)); // only to the right
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    const delta = e.clientX - start.current;
    start.current = null;
    if (shouldDismissOnSwipe(delta)) dismissToast(item.id);
    else setOffset(0);
  };

  return (
    <div
      role={item.variant === 'destructive' ? 'alert' : 'status'}
      aria-live={item.variant === 'destructive' ? 'assertive' : 'polite'}
      data-testid="toast"
      data-variant={item.variant ?? 'default'}
      className={`pc-toast pc-toast--${item.variant ?? 'default'}`}
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
    >
      <div className="pc-toast__body">
        {item.title ? <div className="pc-toast__title">{item.title}</div> : null}
        {item.description ? <div className="pc-toast__description">{item.description}</div> : null}
      </div>
      {item.action ? (
        <button
          type="button"
          className="pc-toast__action"
          onClick={() => {
            item.action?.onClick();
            dismissToast(item.id);
          }}
        >
          {item.action.label}
        </button>
      ) : null}
      <button
        type="button"
        className="pc-toast__close"
        aria-label={t('common.dismiss')}
        onClick={() => dismissToast(item.id)}
      >
        ×
      </button>
    </div>
  );
}

/** Renders the open toasts; mount once, in the shell (and in each remote's standalone page). */
export function Toaster() {
  const { t } = useTranslation();
  const { toasts } = useToast();
  return (
    <section className="pc-toaster" aria-label={t('common.toastRegion')}>
      {toasts
        .filter((item) => item.open)
        .map((item) => (
          <ToastCard key={item.id} item={item} />
        ))}
    </section>
  );
}

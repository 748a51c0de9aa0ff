import { Button, Dialog, FieldError } from '@pagecast/ui';
import type { ReactNode } from 'react';
import { useTranslation } from '@pagecast/i18n';

/** Asks before a change that reaches many screens at once; the error of a refused change shows inside. */
export function ConfirmDialog({
  title,
  children,
  confirm,
  onConfirm,
  onClose,
  pending,
  error,
  destructive,
}: {
  title: string;
  children: ReactNode;
  confirm: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: string | null;
  destructive?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            variant={destructive ? 'destructive' : 'primary'}
            onClick={onConfirm}
            loading={pending}
            data-testid="fleet-confirm"
          >
            {confirm}
          </Button>
        </>
      }
    >
      <div className="pc-stack" data-testid="fleet-confirm-dialog">
        {children}
        <FieldError>{error}</FieldError>
      </div>
    </Dialog>
  );
}

import type { FileSummary } from '@pagecast/contracts';
import { Button, Dialog, FieldError, Spinner, toast, useSessionExpired } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useDeleteFile } from '../api/delete-file';
import { filePurchasersQuery } from '../api/get-file-purchasers';

/** Delete confirmation: with active buyers a warning with their count and '購入者がいても削除する'. */
export function DeleteFileDialog({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const sessionExpired = useSessionExpired();
  const purchasers = useQuery(filePurchasersQuery(file.id));
  const mutation = useDeleteFile({
    onSuccess: () => {
      toast({ title: t('files.toasts.deleted') });
      onClose();
    },
    onError: (error) => {
      if (sessionExpired(error)) return;
      toast({ title: t('files.toasts.deleteFailed'), variant: 'destructive' });
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failed check
  useEffect(() => {
    if (purchasers.isError && !sessionExpired(purchasers.error)) {
      toast({ title: t('files.toasts.purchasersFailed'), variant: 'destructive' });
    }
  }, [purchasers.isError]);

  const count = purchasers.data?.activePurchaserCount ?? 0;
  const withBuyers = Boolean(purchasers.data?.hasActivePurchasers);
  return (
    <Dialog
      open
      onOpenChange={onClose}
      title={t('files.delete.title')}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            variant="destructive"
            onClick={() => mutation.mutate(file.id)}
            loading={mutation.isPending}
            disabled={purchasers.isLoading}
            data-testid="delete-confirm"
          >
            {withBuyers ? t('files.delete.confirmWithPurchasers') : t('files.delete.confirmButton')}
          </Button>
        </>
      }
    >
      <div className="pc-stack" data-testid="delete-dialog">
        <p>{t('files.delete.confirm', { title: file.title })}</p>
        {purchasers.isLoading ? <Spinner size="sm" label={t('files.delete.checking')} /> : null}
        {purchasers.isError ? <FieldError>{t('files.toasts.purchasersFailed')}</FieldError> : null}
        {withBuyers ? (
          <div className="pf-warning" role="alert" data-testid="delete-purchasers-warning">
            {t('files.delete.purchasersWarning', { count })}
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}

import type { FileSummary } from '@pagecast/contracts';
import { Badge, type BadgeVariant } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { type StatusLabel, statusLabel } from '../model/file-rules';

const variants: Record<StatusLabel, BadgeVariant> = {
  published: 'success',
  processing: 'warning',
  disabled: 'destructive',
  private: 'secondary',
};

/** The card's status: published first, then processing (pages so far), disabled (its reason), private. */
export function StatusBadge({ file }: { file: FileSummary }) {
  const { t } = useTranslation();
  const label = statusLabel(file);
  let title: string | undefined;
  if (label === 'disabled' || (label === 'published' && file.status === 'disabled')) {
    const key = `errors.${file.statusReason ?? ''}`;
    const reason = file.statusReason ? t(key, { defaultValue: '' }) : '';
    title = reason && reason !== key ? reason : t('files.status.disabledReasonFallback');
  }
  return (
    <Badge variant={variants[label]} title={title} data-testid="file-status" data-status={label}>
      {t(`files.status.${label}`)}
    </Badge>
  );
}

/** The translated reason a file is disabled (its code), for the card's text. */
export function useDisabledReason(file: FileSummary): string | null {
  const { t } = useTranslation();
  if (file.status !== 'disabled') return null;
  const key = `errors.${file.statusReason ?? ''}`;
  const reason = file.statusReason ? t(key, { defaultValue: '' }) : '';
  return reason && reason !== key ? reason : t('files.status.disabledReasonFallback');
}

import type { ProposalStatus } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Badge, type BadgeVariant } from '@pagecast/ui';

const VARIANT: Record<ProposalStatus, BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
  withdrawn: 'secondary',
};

/** A proposal's status in words (a colour too, never alone). */
export function StatusBadge({ status }: { status: ProposalStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={VARIANT[status]} data-testid="proposal-status" data-status={status}>
      {t(`approvals.status.${status}`)}
    </Badge>
  );
}

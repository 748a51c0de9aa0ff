import './approval.css';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { Badge, PROPOSALS_PATH, useWorkspaceCan } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { pendingCountQuery } from '../../lib/approval/proposals-api';

/**
 * The way to the proposals from the Screens pages; for those who decide (owner, admin, publisher), with how many
 * wait. A server without proposals (or a refusal) leaves the link without a count.
 */
export function ProposalsLink() {
  const { t } = useTranslation();
  const decider = useWorkspaceCan('approvals.decide');
  const pending = useQuery({ ...pendingCountQuery, enabled: decider });
  const count = decider ? pending.data : undefined;
  return (
    <Link to={PROPOSALS_PATH} data-testid="proposals-link" className="pa-link">
      {t('approvals.link')}
      {count && count.count > 0 ? (
        <Badge variant="warning" data-testid="proposals-pending">
          {count.more
            ? t('approvals.pendingMore', { count: count.count })
            : t('approvals.pending', { count: count.count })}
        </Badge>
      ) : null}
    </Link>
  );
}

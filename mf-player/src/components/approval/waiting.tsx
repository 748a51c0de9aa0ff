// What the forms that change what screens play say about approval: before saving, that the change will wait (when
// the workspace asks for approval and the person is an editor); after, that it waits, with the way to the proposal.
import type { Proposal } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate } from '@pagecast/router';
import { proposalPath, toast, useChangesWaitForApproval } from '@pagecast/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { refreshProposals } from '../../lib/approval/proposals-api';
import './approval.css';

/** The note near a save button: this change will wait for approval (nothing when it will not). */
export function ApprovalNote() {
  const { t } = useTranslation();
  const waits = useChangesWaitForApproval();
  if (!waits) return null;
  return (
    <p className="pa-note" data-testid="approval-note">
      {t('approvals.note')}
    </p>
  );
}

/** The notice after a change that waits: it is not made yet, and where its proposal is. */
export function WaitingNotice({ proposal }: { proposal: Proposal | null }) {
  const { t } = useTranslation();
  if (!proposal) return null;
  return (
    <div className="pa-waiting" role="status" data-testid="approval-waiting">
      <p>
        <strong>{t('approvals.waiting.title')}</strong>
        {t('approvals.waiting.body')}
      </p>
      <Link to={proposalPath(proposal.id)} data-testid="approval-waiting-link">
        {t('approvals.waiting.open')}
      </Link>
    </div>
  );
}

/**
 * A form's state of a change that waits: `report` shows the toast (with the way to the proposal) and keeps the
 * proposal for the form's notice; the proposals' count and lists are read again.
 */
export function useWaiting() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [waiting, setWaiting] = useState<Proposal | null>(null);
  const report = useCallback(
    (proposal: Proposal) => {
      setWaiting(proposal);
      void refreshProposals(qc);
      toast({
        title: t('approvals.waiting.title'),
        description: t('approvals.waiting.body'),
        action: { label: t('approvals.waiting.open'), onClick: () => navigate(proposalPath(proposal.id)) },
      });
    },
    [t, navigate, qc],
  );
  const clear = useCallback(() => setWaiting(null), []);
  return { waiting, report, clear };
}

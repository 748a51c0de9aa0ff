import { PROPOSAL_REASON_MAX, type ProposalDetail, RejectProposalRequest } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Link, useParams } from '@pagecast/router';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  ChangeList,
  Dialog,
  describeError,
  FieldError,
  IconArrowLeft,
  Label,
  PROPOSALS_PATH,
  Spinner,
  toast,
  useAuth,
  useSessionExpired,
  useWorkspaceCan,
  useWorkspaceRole,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AgendaTable } from '../../../components/agenda/agenda-table';
import { MembersOnly } from '../../../components/members-only/members-only';
import {
  proposalQuery,
  useApproveProposal,
  useRejectProposal,
  useWithdrawProposal,
} from '../../../lib/approval/proposals-api';
import { useProposalWords } from '../model/proposal-words';
import { StatusBadge } from './status-badge';
import '../../../components/layout/layout.css';
import './approvals.css';

/**
 * One proposal (/screens/proposals/:proposalId): who proposed what and when, each object's difference, the days
 * ahead of its screens as they are and as they would be; approve or reject it with a reason (owner, admin,
 * publisher; not one's own), withdraw it (its proposer, an owner or an admin). The server decides; the page leaves out
 * what the role may not do.
 */
export function ProposalPage() {
  const { t } = useTranslation();
  return (
    <MembersOnly loggedOutTitle={t('screens.loginRequired')}>
      <ProposalView />
    </MembersOnly>
  );
}

function ProposalView() {
  const { t } = useTranslation();
  const { proposalId = '' } = useParams();
  const detail = useQuery(proposalQuery(proposalId));
  return (
    <div className="pc-container pc-page pa-page" data-testid="proposal-page">
      <div className="pl-page__head">
        <Link to={PROPOSALS_PATH} className="pa-back">
          <IconArrowLeft />
          {t('approvals.backToList')}
        </Link>
      </div>
      {detail.isLoading ? <Spinner label={t('common.loading')} /> : null}
      {detail.error ? (
        <>
          <h1 className="pc-page__title">{t('approvals.one')}</h1>
          <p role="alert" className="pa-error" data-testid="proposal-error">
            {describeError(detail.error, t, t('approvals.loadFailed'))}
          </p>
        </>
      ) : null}
      {detail.data ? <ProposalBody detail={detail.data} /> : null}
    </div>
  );
}

function ProposalBody({ detail }: { detail: ProposalDetail }) {
  const { t } = useTranslation();
  const words = useProposalWords();
  const { proposal, objects, agenda, current, agendaScreensTotal } = detail;
  if (!words.ready) return <Spinner label={t('common.loading')} />;
  return (
    <>
      <div className="pl-page__head">
        <h1 className="pc-page__title" data-testid="proposal-title">
          {words.change(proposal)}
        </h1>
        <p className="pc-page__subtitle">
          <StatusBadge status={proposal.status} />
        </p>
      </div>
      <Card>
        <CardContent className="pc-stack">
          <dl className="pc-facts">
            <dt>{t('approvals.proposedBy')}</dt>
            <dd data-testid="proposal-by">{words.person(proposal.proposedBy)}</dd>
            <dt>{t('approvals.proposedAt')}</dt>
            <dd>
              <time dateTime={proposal.createdAt}>{words.when(proposal.createdAt)}</time>
            </dd>
            <dt>{t('approvals.screensLabel')}</dt>
            <dd>{t('approvals.screens', { count: proposal.screenIds.length })}</dd>
            {proposal.decidedBy && proposal.decidedAt ? (
              <>
                <dt>
                  {t(`approvals.decidedBy.${proposal.status}`, { defaultValue: t('approvals.decidedBy.approved') })}
                </dt>
                <dd data-testid="proposal-decided">
                  {t('approvals.decidedLine', {
                    who: words.person(proposal.decidedBy),
                    when: words.when(proposal.decidedAt),
                  })}
                </dd>
              </>
            ) : null}
            {proposal.reason ? (
              <>
                <dt>{t('approvals.reason')}</dt>
                <dd data-testid="proposal-reason">{proposal.reason}</dd>
              </>
            ) : null}
          </dl>
          <Decisions detail={detail} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle level={2}>{t('approvals.difference')}</CardTitle>
        </CardHeader>
        <CardContent className="pc-stack">
          {objects.length === 0 ? <p className="pc-muted">{t('approvals.noDifference')}</p> : null}
          {objects.map((o) => (
            <section key={`${o.type}:${o.id}`} data-testid={`proposal-object-${o.id}`}>
              <h3 className="pa-object">{words.object(o.type, o.id)}</h3>
              {o.diff.length === 0 ? (
                <p className="pc-muted">{t('approvals.noDifference')}</p>
              ) : (
                <ChangeList changes={o.diff} testId={`proposal-diff-${o.id}`} name={words.value} label={words.field} />
              )}
            </section>
          ))}
        </CardContent>
      </Card>
      {/* the days ahead are worked out while it waits: a decided proposal changes nothing more */}
      {proposal.status === 'pending' ? (
        <Card>
          <CardHeader>
            <CardTitle level={2}>{t('approvals.agenda')}</CardTitle>
            <p className="pc-muted">{t('approvals.agendaIntro')}</p>
          </CardHeader>
          <CardContent className="pc-stack">
            {agenda.length === 0 ? <p className="pc-muted">{t('approvals.noAgenda')}</p> : null}
            {agenda.map((after) => {
              const before = current.find((c) => c.screenId === after.screenId);
              const name = words.screen(after.screenId);
              const rotation = words.screens.find((s) => s.id === after.screenId)?.rotation ?? 0;
              return (
                <section key={after.screenId} className="pc-stack" data-testid={`proposal-agenda-${after.screenId}`}>
                  <h3>{name}</h3>
                  <div className="pa-compare">
                    {before ? (
                      <AgendaTable
                        agenda={before}
                        title={name}
                        caption={t('approvals.agendaNow')}
                        rotation={rotation}
                        groups={words.groups}
                        level={4}
                      />
                    ) : null}
                    <AgendaTable
                      agenda={after}
                      title={name}
                      caption={t('approvals.agendaAfter')}
                      rotation={rotation}
                      groups={words.groups}
                      level={4}
                    />
                  </div>
                </section>
              );
            })}
            {agendaScreensTotal > agenda.length ? (
              <p className="pc-muted" data-testid="proposal-agenda-more">
                {t('approvals.agendaMore', { count: agendaScreensTotal - agenda.length })}
              </p>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

/** Approve, reject (with a reason, in a dialog) and withdraw, for the roles that may, while it is pending. */
function Decisions({ detail }: { detail: ProposalDetail }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const role = useWorkspaceRole();
  const decider = useWorkspaceCan('approvals.decide');
  const sessionExpired = useSessionExpired();
  const approve = useApproveProposal();
  const withdraw = useWithdrawProposal();
  const [failure, setFailure] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const { proposal } = detail;
  if (proposal.status !== 'pending') return null;
  const mine = proposal.proposedBy === user?.id;
  // one does not decide one's own proposal; its proposer, an owner or an admin withdraws it
  const mayDecide = decider && !mine;
  const mayWithdraw = mine || role === 'owner' || role === 'admin';
  if (!mayDecide && !mayWithdraw) return null;
  const failed = (error: unknown) => {
    if (sessionExpired(error)) return;
    setFailure(describeError(error, t, t('approvals.failed')));
  };
  return (
    <>
      <div className="pa-actions">
        {mayDecide ? (
          <>
            <Button
              data-testid="proposal-approve"
              loading={approve.isPending}
              onClick={() => {
                setFailure(null);
                approve.mutate(proposal.id, {
                  onSuccess: () => toast({ title: t('approvals.approved') }),
                  onError: failed,
                });
              }}
            >
              {t('approvals.approve')}
            </Button>
            <Button
              variant="outline"
              data-testid="proposal-reject"
              onClick={() => {
                setFailure(null);
                setRejecting(true);
              }}
            >
              {t('approvals.reject')}
            </Button>
          </>
        ) : null}
        {mayWithdraw ? (
          <Button
            variant="outline"
            data-testid="proposal-withdraw"
            loading={withdraw.isPending}
            onClick={() => {
              setFailure(null);
              withdraw.mutate(proposal.id, {
                onSuccess: () => toast({ title: t('approvals.withdrawn') }),
                onError: failed,
              });
            }}
          >
            {t('approvals.withdraw')}
          </Button>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="pa-error" data-testid="proposal-failure">
          {failure}
        </p>
      ) : null}
      {rejecting ? <RejectDialog id={proposal.id} onClose={() => setRejecting(false)} /> : null}
    </>
  );
}

function RejectDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const reject = useRejectProposal();
  const sessionExpired = useSessionExpired();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const parsed = RejectProposalRequest.safeParse({ reason });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'validation.reasonRequired'));
      return;
    }
    setError(null);
    reject.mutate(
      { id, body: parsed.data },
      {
        onSuccess: () => {
          toast({ title: t('approvals.rejected') });
          onClose();
        },
        onError: (err) => {
          if (sessionExpired(err)) return;
          setError(describeError(err, t, t('approvals.failed')));
        },
      },
    );
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={t('approvals.rejectTitle')}
      description={t('approvals.rejectBody')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            variant="destructive"
            loading={reject.isPending}
            data-testid="proposal-reject-confirm"
            onClick={submit}
          >
            {t('approvals.reject')}
          </Button>
        </>
      }
    >
      <div className="pc-field">
        <Label htmlFor="proposal-reason">{t('approvals.reason')}</Label>
        <textarea
          id="proposal-reason"
          className="pc-input pa-reason"
          value={reason}
          maxLength={PROPOSAL_REASON_MAX + 100}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'proposal-reason-error' : undefined}
          data-testid="proposal-reason-input"
          onChange={(e) => setReason(e.target.value)}
        />
        <FieldError id="proposal-reason-error">{error}</FieldError>
      </div>
    </Dialog>
  );
}

import type { ProposalStatus } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import {
  Button,
  Card,
  CardContent,
  describeError,
  IconArrowLeft,
  proposalPath,
  Spinner,
  useChangesWaitForApproval,
  useWorkspaceCan,
} from '@pagecast/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MembersOnly } from '../../../components/members-only/members-only';
import { proposalsQuery } from '../../../lib/approval/proposals-api';
import { pendingFirst, STATUS_ORDER, useProposalWords } from '../model/proposal-words';
import { StatusBadge } from './status-badge';
import '../../../components/layout/layout.css';
import './approvals.css';

/**
 * Proposals (/screens/proposals): the changes of what screens play that wait for approval, and those decided. Pending
 * first; each says who proposed what, when, and how many screens it touches.
 */
export function ProposalsPage() {
  const { t } = useTranslation();
  return (
    <MembersOnly loggedOutTitle={t('screens.loginRequired')}>
      <ProposalsView />
    </MembersOnly>
  );
}

type Filter = ProposalStatus | 'all';

function ProposalsView() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('pending');
  const list = useInfiniteQuery(proposalsQuery(filter === 'all' ? undefined : filter));
  const words = useProposalWords();
  const decider = useWorkspaceCan('approvals.decide');
  const proposer = useChangesWaitForApproval();
  const filterId = useId();
  // rows wait for the names (a proposer would read as "a former member" meanwhile)
  const rows = words.ready ? pendingFirst(list.data?.pages.flatMap((p) => p.proposals) ?? []) : [];
  return (
    <div className="pc-container pc-page pa-page" data-testid="proposals-page">
      <div className="pl-page__head">
        <Link to="/screens" className="pa-back">
          <IconArrowLeft />
          {t('approvals.backToScreens')}
        </Link>
        <h1 className="pc-page__title">{t('approvals.title')}</h1>
        <p className="pc-page__subtitle">
          {decider
            ? t('approvals.subtitleDecider')
            : proposer
              ? t('approvals.subtitleEditor')
              : t('approvals.subtitle')}
        </p>
      </div>
      <div className="pc-field pa-filter">
        <label htmlFor={filterId}>{t('approvals.filter')}</label>
        <select
          id={filterId}
          className="pc-select"
          value={filter}
          data-testid="proposals-filter"
          onChange={(e) => setFilter(e.target.value as Filter)}
        >
          {STATUS_ORDER.map((s) => (
            <option key={s} value={s}>
              {t(`approvals.status.${s}`)}
            </option>
          ))}
          <option value="all">{t('approvals.all')}</option>
        </select>
      </div>
      <Card>
        <CardContent>
          {list.isLoading || !words.ready ? <Spinner label={t('common.loading')} /> : null}
          {list.error ? (
            <p role="alert" className="pa-error" data-testid="proposals-error">
              {describeError(list.error, t, t('approvals.loadFailed'))}
            </p>
          ) : null}
          {list.isSuccess && words.ready && rows.length === 0 ? (
            <p className="pc-muted" data-testid="proposals-empty">
              {filter === 'pending' ? t('approvals.emptyPending') : t('approvals.empty')}
            </p>
          ) : null}
          {rows.length > 0 ? (
            <ul className="pc-list" data-testid="proposals-list">
              {rows.map((p) => {
                const screens = t('approvals.screens', { count: p.screenIds.length });
                return (
                  <li key={p.id} className="pc-list-row" data-testid={`proposal-${p.id}`}>
                    <div className="pc-list-row__main">
                      <Link to={proposalPath(p.id)} className="pc-list-row__title">
                        {words.change(p)}
                      </Link>
                      <span className="pc-muted">
                        {t('approvals.line', {
                          who: words.person(p.proposedBy),
                          when: words.when(p.createdAt),
                          screens,
                        })}
                      </span>
                    </div>
                    <StatusBadge status={p.status} />
                  </li>
                );
              })}
            </ul>
          ) : null}
          {list.hasNextPage ? (
            <div className="pa-more">
              <Button
                variant="outline"
                loading={list.isFetchingNextPage}
                data-testid="proposals-more"
                onClick={() => void list.fetchNextPage()}
              >
                {t('approvals.more')}
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}

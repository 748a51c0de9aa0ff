import {
  BUY_POINTS_PARAM,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  Spinner,
  useRequireLogin,
  useSessionExpired,
  membershipQuery,
  pointsSummaryQuery,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSearchParams } from '@pagecast/router';
import { billingConfigQuery } from '../api/get-billing-config';
import { pointsHistoryQuery } from '../api/get-points-history';
import { CashOutCard } from './cash-out-card';
import { HistoryCard } from './history-card';
import { MembershipCard } from './membership-card';
import { PurchaseDialog } from './purchase-dialog';
import './points.css';

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardDescription>{label}</CardDescription>
        <p className="pp-figure" style={{ margin: 0 }} data-testid={`${testId}-value`}>
          {value}
        </p>
      </CardHeader>
    </Card>
  );
}

/** Points (/points, spec point 2): four cards, purchase, history, cash-out and membership. */
export function PointsPage() {
  const { t, i18n } = useTranslation();
  const { allowed } = useRequireLogin();
  const sessionExpired = useSessionExpired();
  const [buying, setBuying] = useState(false);
  const [params, setParams] = useSearchParams();
  const config = useQuery({ ...billingConfigQuery, enabled: allowed });
  const summary = useQuery({ ...pointsSummaryQuery, enabled: allowed });
  const history = useQuery({ ...pointsHistoryQuery, enabled: allowed });
  const membership = useQuery({ ...membershipQuery, enabled: allowed });
  const firstError = summary.error ?? history.error ?? membership.error;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failed read
  useEffect(() => {
    if (firstError) sessionExpired(firstError);
  }, [firstError]);

  // /points?buy=1 (where points are short: a marketplace card, a confirmation) opens the purchase dialog once
  useEffect(() => {
    if (!allowed || params.get(BUY_POINTS_PARAM) !== '1') return;
    setBuying(true);
    const next = new URLSearchParams(params);
    next.delete(BUY_POINTS_PARAM);
    setParams(next, { replace: true });
  }, [allowed, params, setParams]);

  if (!allowed) return <Spinner />;
  const points = (n: number | undefined) =>
    n === undefined ? (
      '–'
    ) : (
      <>
        {n.toLocaleString(i18n.language)} <small>{t('points.unit')}</small>
      </>
    );
  const s = summary.data;
  const notice = membership.data?.notice;
  const unavailable = config.data ? !config.data.cardPaymentsEnabled : false;

  return (
    <div className="pc-container pc-page" data-testid="points-page">
      <h1 className="pc-page__title">{t('points.title')}</h1>

      {notice ? (
        <div className="pp-banner pp-banner--warning" role="status" data-testid="points-notice" data-notice={notice}>
          <strong>{t(`points.notice.${notice === 'trial-ended' ? 'trialEnded' : 'renewalFailed'}.title`)}</strong>
          <p>{t(`points.notice.${notice === 'trial-ended' ? 'trialEnded' : 'renewalFailed'}.description`)}</p>
        </div>
      ) : null}

      {unavailable ? (
        <div className="pp-banner pp-banner--danger" role="alert" data-testid="points-unavailable">
          <strong>{t('points.unavailable.title')}</strong>
          <p>{t('points.unavailable.description')}</p>
        </div>
      ) : null}

      {firstError ? (
        <Card role="alert" style={{ marginBottom: 20 }}>
          <CardHeader>
            <CardDescription>{t('points.loadFailed')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button
              onClick={() => {
                void summary.refetch();
                void history.refetch();
                void membership.refetch();
              }}
            >
              {t('common.retry')}
            </Button>
          </CardContent>
        </Card>
      ) : null}

      <div className="pp-cards">
        <Figure label={t('points.cards.balance')} value={points(s?.balance)} testId="points-balance-card" />
        <Figure label={t('points.cards.earned')} value={points(s?.earnedThisMonth)} testId="points-earned-card" />
        <Figure label={t('points.cards.spent')} value={points(s?.spentThisMonth)} testId="points-spent-card" />
        <Figure
          label={t('points.cards.purchased')}
          value={points(s?.purchasedThisMonth)}
          testId="points-purchased-card"
        />
      </div>

      <div className="pp-actions">
        {/* spec point 2: with the red banner both buttons are disabled; a configuration that could not be read
            leaves it enabled so that the dialog can tell the spec's configuration error */}
        <Button onClick={() => setBuying(true)} disabled={unavailable} data-testid="points-buy">
          {t('points.buy')}
        </Button>
        <Button variant="outline" disabled data-testid="points-cash-out-action">
          {t('points.cashOut.title')}
        </Button>
      </div>

      <div className="pp-columns">
        {/* a failed read is told once, by the card above with its retry: no spinner that never ends */}
        {history.data ? (
          <HistoryCard rows={history.data} />
        ) : history.isError ? null : (
          <Spinner label={t('common.loading')} />
        )}
        <div className="pp-side">
          {membership.data ? (
            <MembershipCard status={membership.data} onBuyPoints={unavailable ? undefined : () => setBuying(true)} />
          ) : membership.isError ? null : (
            <Spinner label={t('common.loading')} />
          )}
          <CashOutCard />
        </div>
      </div>

      <PurchaseDialog open={buying} onOpenChange={setBuying} config={config.data} />
    </div>
  );
}

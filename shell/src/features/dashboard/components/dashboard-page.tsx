import type { DashboardStats, MembershipStatus, PointsSummary } from '@pagecast/contracts';
import {
  Badge,
  type BadgeVariant,
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  LICENCE_ENDING_SOON_DAYS,
  licenceEndsSoon,
  type PurchasedFile,
  purchasedFilesQuery,
  Spinner,
  useRequireLogin,
  membershipQuery,
  pointsSummaryQuery,
  useSessionExpired,
  inWorkspace,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link, useNavigate } from '@pagecast/router';
import { dashboardStatsQuery } from '../api/get-dashboard-stats';
import { fileStatusLabel, renewalOf, TIER_PROGRESS_PERCENT } from './dashboard-model';
import './dashboard.css';

const badgeVariant: Record<ReturnType<typeof fileStatusLabel>, BadgeVariant> = {
  published: 'success',
  processing: 'warning',
  disabled: 'destructive',
  private: 'secondary',
};

function Overview({
  stats,
  membership,
  summary,
  purchased,
}: {
  stats: DashboardStats;
  membership: MembershipStatus | undefined;
  summary: PointsSummary | undefined;
  /** the bought files within their licence (undefined while loading or when they could not be read) */
  purchased: PurchasedFile[] | undefined;
}) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => n.toLocaleString(i18n.language);
  const tier = membership?.membershipTier ?? stats.user.membershipTier;
  const renewal = membership ? renewalOf(membership) : null;
  // billing owns the ledger: its figures win over the read model's copy once they arrive
  const balance = summary?.balance ?? stats.user.points;
  // the earnings card counts sales only (no registration bonus); the points panel, every earn row (the Points screen's)
  const sales = summary?.salesThisMonth ?? stats.monthlyEarnings;
  const earned = summary?.earnedThisMonth;
  const spent = summary?.spentThisMonth ?? stats.monthlySpent;
  // billing's calendar is Tokyo's: a renewal at 00:00 JST on the 1st reads as the 1st everywhere
  const date = (d: Date) => d.toLocaleDateString(i18n.language, { timeZone: 'Asia/Tokyo' });

  return (
    <>
      <div className="pd-grid">
        <Card data-testid="dashboard-tier">
          <CardHeader>
            <CardDescription>{t('dashboard.tier.title')}</CardDescription>
            <CardTitle className="pd-figure">{t(`common.tiers.${tier}`)}</CardTitle>
          </CardHeader>
          <CardContent>
            <div
              className="pd-bar"
              role="progressbar"
              aria-label={t('dashboard.tier.progress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={TIER_PROGRESS_PERCENT}
            >
              <div style={{ width: `${TIER_PROGRESS_PERCENT}%` }} />
            </div>
            <p className="pc-muted" data-testid="dashboard-renewal">
              {renewal === null
                ? '…'
                : renewal.kind === 'renewal'
                  ? t('dashboard.tier.nextRenewal', { date: date(renewal.date) })
                  : renewal.kind === 'trial-ends'
                    ? t('dashboard.tier.trialEnds', { date: date(renewal.date) })
                    : t('dashboard.tier.noRenewal')}
            </p>
          </CardContent>
        </Card>

        <Card data-testid="dashboard-file-count">
          <CardHeader>
            <CardDescription>{t('dashboard.files.title')}</CardDescription>
            <CardTitle className="pd-figure">
              <span data-testid="dashboard-file-count-value">
                {t('dashboard.files.count', { files: stats.fileCount, limit: stats.fileLimit })}
              </span>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <div className="pd-bar" aria-hidden="true">
              <div style={{ width: `${Math.min(100, (stats.fileCount / stats.fileLimit) * 100)}%` }} />
            </div>
            <p className="pc-muted">{t('dashboard.files.limit', { limit: stats.fileLimit })}</p>
            {purchased ? <PurchasedLine purchased={purchased} /> : null}
          </CardContent>
        </Card>

        <Card data-testid="dashboard-earnings">
          <CardHeader>
            <CardDescription>{t('dashboard.earnings.title')}</CardDescription>
            <CardTitle className="pd-figure">
              {t('dashboard.earnings.value', { count: sales, points: number(sales) })}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="pc-muted">{t('dashboard.earnings.hint')}</p>
          </CardContent>
        </Card>
      </div>

      <QuickActions />

      <div className="pd-columns">
        <RecentFiles files={stats.recentFiles} />

        <PointsPanel balance={balance} earned={earned} spent={spent} />
      </div>
    </>
  );
}

/** What a member does most from here: upload, manage files, buy content, buy points. */
function QuickActions() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card style={{ marginBottom: 24 }}>
      <CardHeader>
        <CardTitle>{t('dashboard.quickActions.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <div className="pd-actions">
          <Button onClick={() => navigate('/files?upload=1')} data-testid="dashboard-upload">
            {t('dashboard.quickActions.upload')}
          </Button>
          <Link className={buttonClass('outline')} to="/files" data-testid="dashboard-manage-files">
            {t('dashboard.quickActions.manageFiles')}
          </Link>
          <Link className={buttonClass('outline')} to="/marketplace">
            {t('dashboard.quickActions.marketplace')}
          </Link>
          <Link className={buttonClass('outline')} to="/points">
            {t('dashboard.quickActions.buyPoints')}
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}

/** The newest files with their state and a play button (a new tab). */
function RecentFiles({ files }: { files: DashboardStats['recentFiles'] }) {
  const { t } = useTranslation();
  return (
    <Card data-testid="dashboard-recent">
      <CardHeader>
        <CardTitle>{t('dashboard.recent.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {files.length === 0 ? (
          <div className="pc-stack" style={{ alignItems: 'flex-start' }}>
            <p className="pc-muted">{t('dashboard.recent.empty')}</p>
            <Link className={buttonClass('primary', 'sm')} to="/files?upload=1">
              {t('dashboard.quickActions.upload')}
            </Link>
          </div>
        ) : (
          <ul className="pd-recent">
            {files.map((file) => {
              const label = fileStatusLabel(file);
              return (
                <li key={file.id} data-testid="dashboard-recent-file">
                  <span className="pd-recent__title" title={file.title}>
                    {file.title}
                  </span>
                  <Badge variant={badgeVariant[label]} data-testid="dashboard-recent-status">
                    {t(`files.status.${label}`)}
                  </Badge>
                  <a
                    className={buttonClass('outline', 'sm')}
                    href={inWorkspace(`/signage/${encodeURIComponent(file.id)}`)}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t('dashboard.recent.playLabel', { title: file.title })}
                    data-testid="dashboard-recent-play"
                  >
                    ▶ {t('dashboard.recent.play')}
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The balance, what came in and went out this month, and the way to buy or cash out. */
function PointsPanel({ balance, earned, spent }: { balance: number; earned: number | undefined; spent: number }) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => n.toLocaleString(i18n.language);
  const signed = (n: number, sign: '+' | '-') => (n > 0 ? `${sign}${number(n)}` : number(n));
  return (
    <Card className="pd-points" data-testid="dashboard-points">
      <CardHeader>
        <CardTitle>{t('dashboard.points.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="pd-figure" data-testid="dashboard-points-balance">
          {number(balance)} <small>{t('dashboard.points.unit')}</small>
        </p>
        <dl>
          <dt className="pc-muted">{t('dashboard.points.earned')}</dt>
          <dd data-testid="dashboard-points-earned">{earned === undefined ? '…' : signed(earned, '+')}</dd>
          <dt className="pc-muted">{t('dashboard.points.spent')}</dt>
          <dd data-testid="dashboard-points-spent">{signed(spent, '-')}</dd>
        </dl>
        <div className="pc-row">
          <Link className={buttonClass('primary', 'sm')} to="/points">
            {t('dashboard.points.buy')}
          </Link>
          <Link className={buttonClass('outline', 'sm')} to="/points">
            {t('dashboard.points.cashOut')}
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}

/** Beside the own files: how many bought files are within their licence, and how many of those end soon. */
function PurchasedLine({ purchased }: { purchased: PurchasedFile[] }) {
  const { t } = useTranslation();
  const now = new Date();
  const endingSoon = purchased.filter((f) => licenceEndsSoon(f.licenceExpiresAt, now)).length;
  return (
    <div className="pd-purchased">
      <Link to="/files?view=purchased" data-testid="dashboard-purchased" data-count={purchased.length}>
        {t('dashboard.files.purchased', { count: purchased.length })}
      </Link>
      {endingSoon > 0 ? (
        <Badge variant="warning" data-testid="dashboard-ending-soon" data-count={endingSoon}>
          {t('dashboard.files.endingSoon', { count: endingSoon, days: LICENCE_ENDING_SOON_DAYS })}
        </Badge>
      ) : null}
    </div>
  );
}

/** Dashboard (/ when signed in): tier, file count against the limit, earnings, quick actions, recent files, points. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { allowed, user } = useRequireLogin();
  const stats = useQuery({ ...dashboardStatsQuery, enabled: allowed });
  const membership = useQuery({ ...membershipQuery, enabled: allowed });
  const summary = useQuery({ ...pointsSummaryQuery, enabled: allowed });
  const purchased = useQuery({ ...purchasedFilesQuery, enabled: allowed });
  const notice = membership.data?.notice;
  const sessionExpired = useSessionExpired();

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failed read
  useEffect(() => {
    if (stats.error) sessionExpired(stats.error);
  }, [stats.error]);

  if (!allowed) return <Spinner />;
  const name = user?.firstName?.trim() || user?.email || '';
  return (
    <div className="pc-container pc-page" data-testid="dashboard-page">
      <h1 className="pc-page__title">{t('dashboard.title')}</h1>
      <p className="pc-page__subtitle pc-muted">{t('dashboard.welcome', { name })}</p>
      {notice ? (
        <div className="pd-notice" role="status" data-testid="dashboard-notice" data-notice={notice}>
          <strong>{t(`dashboard.notice.${notice === 'trial-ended' ? 'trialEnded' : 'renewalFailed'}.title`)}</strong>
          <p>{t(`dashboard.notice.${notice === 'trial-ended' ? 'trialEnded' : 'renewalFailed'}.description`)}</p>
          <Link to="/points">{t('dashboard.notice.action')}</Link>
        </div>
      ) : null}
      {stats.isLoading ? <Spinner label={t('common.loading')} /> : null}
      {stats.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardDescription>{t('dashboard.loadFailed')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button onClick={() => void stats.refetch()}>{t('common.retry')}</Button>
          </CardContent>
        </Card>
      ) : null}
      {stats.data ? (
        <Overview
          key={i18n.language}
          stats={stats.data}
          membership={membership.data}
          summary={summary.data}
          purchased={purchased.data}
        />
      ) : null}
    </div>
  );
}

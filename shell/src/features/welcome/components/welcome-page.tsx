import { constants } from '@pagecast/contracts';
import {
  Badge,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  IconGift,
  useAuth,
} from '@pagecast/ui';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { useMarkWelcomeSeen } from '../api/mark-welcome-seen';

/**
 * Welcome (spec point 2): greets by first name, the registration bonus, the plans (figures from the constants),
 * current points and plan, a button to the dashboard. The first visit marks the page as seen.
 */
export function WelcomePage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const marked = useRef(false);
  const n = (value: number) => value.toLocaleString(i18n.language);

  const mark = useMarkWelcomeSeen();

  const hasSeenWelcome = user?.hasSeenWelcome;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per visit, when the user says it was not seen yet
  useEffect(() => {
    if (hasSeenWelcome !== false || marked.current) return;
    marked.current = true;
    mark.mutate();
  }, [hasSeenWelcome]);

  if (!user) return null;
  const tier = user.membershipTier ?? constants.defaultMembershipTier;
  const plans = [
    {
      id: 'trial',
      text: t('auth.welcome.plans.trial', {
        price: n(constants.monthlyPlanPrices.trial),
        limit: constants.fileLimits.trial,
        freeLimit: constants.fileLimits.free,
      }),
    },
    {
      id: 'standard',
      text: t('auth.welcome.plans.standard', {
        price: n(constants.monthlyPlanPrices.standard),
        limit: constants.fileLimits.standard,
      }),
    },
    {
      id: 'creator',
      text: t('auth.welcome.plans.creator', {
        price: n(constants.monthlyPlanPrices.creator),
        limit: constants.fileLimits.creator,
      }),
    },
  ];

  return (
    <div className="pc-container pc-page" data-testid="welcome-page">
      <div className="pc-stack" style={{ maxWidth: 760, margin: '0 auto' }}>
        <div>
          <h1 className="pc-page__title">
            {user.firstName ? t('auth.welcome.greeting', { name: user.firstName }) : t('auth.welcome.title')}
          </h1>
          <p className="pc-page__subtitle">{t('auth.welcome.subtitle')}</p>
        </div>
        <Card data-testid="welcome-bonus">
          <CardHeader>
            <CardTitle>
              <IconGift className="pc-title-icon" />
              {t('auth.welcome.bonusTitle')}
            </CardTitle>
            <CardDescription>
              {t('auth.welcome.bonus', { points: n(constants.registrationBonusPoints) })}
            </CardDescription>
          </CardHeader>
          <CardContent className="pc-row" style={{ justifyContent: 'space-between' }}>
            <div>
              <div className="pc-muted">{t('auth.welcome.currentPoints')}</div>
              <strong style={{ fontSize: '1.4rem' }} data-testid="welcome-points">
                {t('common.points', { count: user.points ?? 0, points: n(user.points ?? 0) })}
              </strong>
            </div>
            <div>
              <div className="pc-muted">{t('auth.welcome.currentPlan')}</div>
              <Badge data-testid="welcome-plan">{t(`common.tiers.${tier}`, { defaultValue: tier })}</Badge>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('auth.welcome.plansTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="pc-stack" style={{ margin: 0, paddingLeft: 20, gap: 8 }} data-testid="welcome-plans">
              {plans.map((plan) => (
                <li key={plan.id}>
                  <strong>{t(`common.tiers.${plan.id}`)}</strong>: {plan.text}
                </li>
              ))}
            </ul>
            <p className="pc-muted" style={{ marginBottom: 0 }}>
              {t('auth.welcome.pointsRate', { yen: constants.yenPerPoint })}
            </p>
          </CardContent>
        </Card>
        <div className="pc-row" style={{ justifyContent: 'center' }}>
          <Link to="/" className={buttonClass('primary', 'lg')} data-testid="welcome-to-dashboard">
            {t('auth.welcome.toDashboard')}
          </Link>
        </div>
      </div>
    </div>
  );
}

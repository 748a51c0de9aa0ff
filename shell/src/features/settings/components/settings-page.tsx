import { constants } from '@pagecast/contracts';
import { buttonClass, Card, CardContent, CardHeader, CardTitle, IconArrowLeft, useAuth } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { PasswordCard } from './password-card';
import { ProfileCard, ReadOnly } from './profile-card';

/** Settings (spec point 2): profile, read-only account facts, password change for local accounts, back to /. */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  if (!user) return null;
  const tier = user.membershipTier ?? constants.defaultMembershipTier;
  const local = user.authProvider === 'local';
  return (
    <div className="pc-container pc-page" data-testid="settings-page">
      <div className="pc-stack" style={{ maxWidth: 760, margin: '0 auto' }}>
        <div className="pc-row" style={{ justifyContent: 'space-between' }}>
          <div>
            <h1 className="pc-page__title">{t('settings.title')}</h1>
            <p className="pc-page__subtitle" style={{ margin: 0 }}>
              {t('settings.subtitle')}
            </p>
          </div>
          <Link to="/" className={buttonClass('outline', 'sm')} data-testid="settings-back">
            <IconArrowLeft />
            {t('settings.back')}
          </Link>
        </div>
        <ProfileCard user={user} />
        <Card data-testid="account-card">
          <CardHeader>
            <CardTitle>{t('settings.account.title')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="pc-stack" style={{ margin: 0, gap: 10 }}>
              <ReadOnly label={t('auth.email')} value={user.email} testId="settings-email" />
              <ReadOnly label={t('settings.account.plan')} value={t(`common.tiers.${tier}`, { defaultValue: tier })} />
              <ReadOnly
                label={t('settings.account.points')}
                value={t('common.points', {
                  count: user.points ?? 0,
                  points: (user.points ?? 0).toLocaleString(i18n.language),
                })}
                testId="settings-points"
              />
              <ReadOnly
                label={t('settings.account.authMethod')}
                value={local ? t('settings.account.authLocal') : t('settings.account.authExternal')}
                testId="settings-auth-method"
              />
            </dl>
            {local ? null : (
              <p style={{ marginBottom: 0 }}>
                <Link to="/migrate-account">{t('settings.account.migrateLink')}</Link>
              </p>
            )}
          </CardContent>
        </Card>
        {local ? <PasswordCard /> : null}
      </div>
    </div>
  );
}

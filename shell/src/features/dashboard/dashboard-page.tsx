import { Card, CardDescription, CardHeader, Spinner, useRequireLogin } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';

/** Dashboard (a later issue fills it): signed-in only. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { allowed } = useRequireLogin();
  if (!allowed) return <Spinner />;
  return (
    <div className="pc-container pc-page" data-testid="dashboard-page">
      <Card>
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.dashboard.title')}</h1>
          <CardDescription>{t('common.comingSoon')}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}

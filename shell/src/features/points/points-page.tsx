import { Card, CardDescription, CardHeader, Spinner, useRequireLogin } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';

/** Points (a later issue fills it): a visitor is sent to /login (spec point 2, "Unauthenticated access"). */
export function PointsPage() {
  const { t } = useTranslation();
  const { allowed } = useRequireLogin();
  if (!allowed) return <Spinner />;
  return (
    <div className="pc-container pc-page" data-testid="points-page">
      <Card>
        <CardHeader>
          <h1 className="pc-page__title">{t('points.title')}</h1>
          <CardDescription>{t('common.comingSoon')}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}

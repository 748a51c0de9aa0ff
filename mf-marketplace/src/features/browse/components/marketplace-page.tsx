import { Card, CardDescription, CardHeader, Spinner, useRequireLogin } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';

/** Marketplace (/marketplace). Signed-in only: a visitor is remembered, told to log in and sent to /login. */
export function MarketplacePage() {
  const { t } = useTranslation();
  const { allowed } = useRequireLogin();
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_marketplace">
      {allowed ? (
        <Card>
          <CardHeader>
            <h1 className="pc-page__title">{t('marketplace.title')}</h1>
            <CardDescription>{t('marketplace.subtitle')}</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Spinner />
      )}
    </div>
  );
}

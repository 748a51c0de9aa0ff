import { Card, CardDescription, CardHeader, Spinner, useRequireLogin } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';

/** File management (/files). Signed-in only: a visitor is remembered, told to log in and sent to /login. */
export function FilesPage() {
  const { t } = useTranslation();
  const { allowed } = useRequireLogin();
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_files">
      {allowed ? (
        <Card>
          <CardHeader>
            <h1 className="pc-page__title">{t('files.title')}</h1>
            <CardDescription>{t('files.subtitle')}</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Spinner />
      )}
    </div>
  );
}

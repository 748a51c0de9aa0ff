import { Spinner, useAuth } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { PairForm } from './pair-form';
import { PlayReportCard } from './play-report-card';
import { ScreenList } from './screen-list';

/** Screens (/screens): pair a display by its code, see each screen's status, say what it plays, read its plays. */
export function ScreensPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  if (isLoading) return <Spinner />;
  if (!user)
    return (
      <div className="pc-container pc-page">
        <h1 className="pc-page__title">{t('screens.loginRequired')}</h1>
      </div>
    );
  return (
    <div className="pc-container pc-page pc-stack">
      <h1 className="pc-page__title">{t('screens.title')}</h1>
      <PairForm />
      <ScreenList />
      <PlayReportCard />
    </div>
  );
}

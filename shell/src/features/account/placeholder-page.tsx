import { Card, CardDescription, CardHeader } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';

/** Account screens that later issues fill in: for now a translated title only, no pretend behaviour. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="pc-container pc-page" data-testid="placeholder-page">
      <Card>
        <CardHeader>
          <h1 className="pc-page__title">{t(titleKey)}</h1>
          <CardDescription>{t('common.comingSoon')}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}

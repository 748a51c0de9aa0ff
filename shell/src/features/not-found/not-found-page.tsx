import { buttonClass, Card, CardDescription, CardFooter, CardHeader, CardTitle, IconAlert } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="pc-center" data-testid="not-found">
      <Card className="pc-state-card">
        <CardHeader>
          <CardTitle level={1}>
            <IconAlert className="pc-title-icon" />
            {t('notFound.title')}
          </CardTitle>
          <CardDescription>{t('notFound.hint')}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Link to="/" className={buttonClass('outline', 'md')}>
            {t('common.backHome')}
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}

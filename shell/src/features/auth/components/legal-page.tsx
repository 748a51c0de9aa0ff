import { buttonClass, Card, CardDescription, CardFooter, CardHeader } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';

/** Terms and privacy: placeholders (spec point 2: their content is not shown). */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  return (
    <div className="pc-center" data-testid={`${kind}-page`}>
      <Card className="pc-state-card">
        <CardHeader>
          <h1 className="pc-page__title">{t(`auth.legal.${kind}`)}</h1>
          <CardDescription>{t('auth.legal.placeholder')}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Link to="/register" className={buttonClass('outline', 'md')}>
            {t('auth.legal.backToRegister')}
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}

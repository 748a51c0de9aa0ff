import { buttonClass, Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';

/** The not-found and load-failure screens of spec point 2. */
export function StateCard({ title, description, back }: { title: string; description: string; back?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="pc-player__overlay">
      <Card className="pc-state-card" data-testid="player-error" role="alert">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {back ? (
          <CardFooter>
            <Link to="/" className={buttonClass('primary')}>
              {t('player.backToDashboard')}
            </Link>
          </CardFooter>
        ) : null}
      </Card>
    </div>
  );
}

/** A page whose image could not be loaded: the title, the page number and the spec's text. */
export function ImageFallback({ title, pageNumber }: { title: string; pageNumber: number }) {
  const { t } = useTranslation();
  return (
    <div className="pc-player__overlay">
      <Card
        className="pc-state-card"
        data-testid="player-image-fallback"
        role="img"
        aria-label={t('player.imageFailed')}
      >
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{t('player.fallbackPage', { page: pageNumber })}</CardDescription>
          <CardDescription>{t('player.imageFailed')}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}

import {
  Badge,
  Button,
  buttonClass,
  Card,
  CardDescription,
  CopyrightDetails,
  CardHeader,
  IconPlay,
  licenceDaysLeft,
  licenceEndsSoon,
  type PurchasedFile,
  purchasedFilesQuery,
  Spinner,
  inWorkspace,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { useKindLabel } from './kind-badge';

/** The play route the member's own files use (the signage page, playing at once). */
const playUrl = (id: string) => inWorkspace(`/signage/${encodeURIComponent(id)}?autoplay=true`);

/** One bought file: thumbnail with play, title, pages, the licence's end and the days left, play and add to playlist. */
export function PurchasedCard({ file, now }: { file: PurchasedFile; now: Date }) {
  const { t, i18n } = useTranslation();
  const daysLeft = licenceDaysLeft(file.licenceExpiresAt, now);
  const soon = licenceEndsSoon(file.licenceExpiresAt, now);
  const ends = new Date(file.licenceExpiresAt).toLocaleDateString(i18n.language);
  const kindLabel = useKindLabel(file);
  return (
    <Card
      className={soon ? 'pf-card pf-card--ending' : 'pf-card'}
      data-testid="purchased-card"
      data-file-id={file.id}
      data-title={file.title}
      data-ending-soon={soon ? 'true' : 'false'}
    >
      <div className="pf-card__thumb">
        {file.thumbnailUrl ? (
          <img src={file.thumbnailUrl} alt="" loading="lazy" />
        ) : (
          <span className="pf-card__kind">{kindLabel}</span>
        )}
        <a
          className="pf-card__play"
          href={playUrl(file.id)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('files.purchased.playLabel', { title: file.title })}
          title={t('files.purchased.play')}
        >
          <IconPlay />
        </a>
      </div>
      <div className="pf-card__body">
        <div className="pf-card__head">
          <h3 className="pf-card__title" title={file.title}>
            {file.title}
          </h3>
          {soon ? (
            <Badge variant="warning" data-testid="purchased-ending-soon">
              {t('files.purchased.endingSoon')}
            </Badge>
          ) : null}
        </div>
        <CopyrightDetails copyright={file.copyright} compact />
        <dl className="pf-props">
          <dt>{t('files.purchased.pagesLabel')}</dt>
          <dd>{t('files.card.pages', { n: file.pageCount })}</dd>
          <dt>{t('files.purchased.endsLabel')}</dt>
          <dd>
            <span data-testid="purchased-ends" data-expires-at={file.licenceExpiresAt}>
              {ends}
            </span>{' '}
            <span
              className={soon ? 'pf-days-left pf-days-left--soon' : 'pf-days-left'}
              data-testid="purchased-days-left"
            >
              {t('files.purchased.daysLeft', { count: daysLeft })}
            </span>
          </dd>
        </dl>
        <div className="pc-row pf-card__actions">
          <a
            className={buttonClass('primary', 'sm')}
            href={playUrl(file.id)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('files.purchased.playLabel', { title: file.title })}
            data-testid="purchased-play"
          >
            {t('files.purchased.play')}
          </a>
          {/* the same flow as the member's own files: playlists offer every accessible file, bought ones too */}
          <Link className={buttonClass('outline', 'sm')} to="/playback" data-testid="purchased-add-to-playlist">
            {t('files.purchased.addToPlaylist')}
          </Link>
        </div>
      </div>
    </Card>
  );
}

/** File management's "Purchased" tab: what the member bought, the licence ending first at the top. */
export function PurchasedFiles() {
  const { t } = useTranslation();
  const files = useQuery(purchasedFilesQuery);
  const now = new Date();
  if (files.isLoading) return <Spinner label={t('common.loading')} />;
  if (files.isError)
    return (
      <Card role="alert">
        <CardHeader>
          <CardDescription>{t('files.purchased.loadFailed')}</CardDescription>
        </CardHeader>
        <div className="pc-row" style={{ padding: '0 20px 20px' }}>
          <Button onClick={() => void files.refetch()}>{t('common.retry')}</Button>
        </div>
      </Card>
    );
  const list = files.data ?? [];
  if (list.length === 0)
    return (
      <Card className="pf-empty" data-testid="purchased-empty">
        <h2>{t('files.purchased.empty.title')}</h2>
        <p className="pc-muted">{t('files.purchased.empty.description')}</p>
        <Link className={buttonClass('primary')} to="/marketplace">
          {t('files.purchased.empty.action')}
        </Link>
      </Card>
    );
  return (
    <div className="pc-stack">
      <p className="pc-muted pf-small">{t('files.purchased.description')}</p>
      <div className="pf-grid" data-testid="purchased-grid">
        {list.map((file) => (
          <PurchasedCard key={file.id} file={file} now={now} />
        ))}
      </div>
    </div>
  );
}

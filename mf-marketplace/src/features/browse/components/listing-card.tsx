import type { MarketplaceListing } from '@pagecast/contracts';
import { Badge, BUY_POINTS_PATH, Button, buttonClass, Card, CopyrightDetails } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { formatLength, LICENCE_DAYS, type PurchaseState } from '../model/marketplace-rules';

const buttonLabel: Record<PurchaseState, string> = {
  own: 'marketplace.card.own',
  licensed: 'marketplace.card.licensed',
  'free-member': 'marketplace.card.freeMember',
  insufficient: 'marketplace.card.insufficient',
  available: 'marketplace.card.buy',
};

/** What the preview shows: a video's watermarked clip, a photo, or a document's pages. */
const previewLabel = (kind: MarketplaceListing['kind']) =>
  kind === 'video'
    ? 'marketplace.card.previewVideo'
    : kind === 'image'
      ? 'marketplace.card.previewImage'
      : 'marketplace.card.preview';

const playUrl = (id: string) => `/signage/${encodeURIComponent(id)}?autoplay=true`;

/**
 * One listing: first-page thumbnail (opens the preview), price, title, what it holds (a document's pages and seconds
 * per page; a photo's seconds; a video's length), the 30-day period, date, buy button.
 */
export function ListingCard({
  listing,
  state,
  onBuy,
  onPreview,
}: {
  listing: MarketplaceListing;
  state: PurchaseState;
  onBuy: () => void;
  onPreview: () => void;
}) {
  const { t, i18n } = useTranslation();
  const published = new Date(listing.updatedAt).toLocaleDateString(i18n.language);
  return (
    <Card
      className="pm-card"
      data-testid="market-card"
      data-file-id={listing.id}
      data-title={listing.title}
      data-state={state}
    >
      <button
        type="button"
        className="pm-card__thumb"
        onClick={onPreview}
        aria-label={t(previewLabel(listing.kind), { title: listing.title })}
        data-testid="market-preview-open"
      >
        <img src={listing.thumbnailUrl} alt="" loading="lazy" data-testid="market-thumb" />
        <span className="pm-card__preview-hint" aria-hidden="true">
          {t('marketplace.card.previewShort')}
        </span>
      </button>
      <div className="pm-card__body">
        <div className="pm-card__head">
          <span className="pm-price" data-testid="market-price">
            {t('marketplace.card.price', { price: listing.publishPrice.toLocaleString(i18n.language) })}
          </span>
          {listing.kind === 'video' || listing.kind === 'image' ? (
            <Badge variant="secondary" data-testid="market-kind" data-kind={listing.kind}>
              {t(listing.kind === 'video' ? 'marketplace.card.kindVideo' : 'marketplace.card.kindImage')}
            </Badge>
          ) : null}
          {listing.isOwn ? (
            <Badge variant="secondary" data-testid="market-own">
              {t('marketplace.card.ownBadge')}
            </Badge>
          ) : null}
          {listing.purchased ? (
            <Badge variant="success" data-testid="market-licensed">
              {t('marketplace.card.licensedBadge')}
            </Badge>
          ) : null}
        </div>
        <h2 className="pm-card__title" title={listing.title}>
          {listing.title}
        </h2>
        <CopyrightDetails copyright={listing.copyright} compact />
        <dl className="pm-props">
          <Extent listing={listing} />
          <dt>{t('marketplace.card.periodLabel')}</dt>
          <dd>{t('marketplace.card.period', { count: LICENCE_DAYS, days: LICENCE_DAYS })}</dd>
          <dt>{t('marketplace.card.publishedLabel')}</dt>
          <dd>{published}</dd>
        </dl>
        {listing.tags.length ? (
          <ul className="pm-card__tags" aria-label={t('marketplace.card.tagsLabel')}>
            {listing.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        ) : null}
        {state === 'licensed' ? (
          // bought and within its licence: play it (the same play route as the member's own files)
          <a
            className={buttonClass('primary', 'md', 'pm-card__buy')}
            href={playUrl(listing.id)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('marketplace.card.playLabel', { title: listing.title })}
            data-testid="market-play"
          >
            {t('marketplace.card.play')}
          </a>
        ) : (
          <Button
            className="pm-card__buy"
            variant={state === 'available' ? 'primary' : 'secondary'}
            disabled={state !== 'available'}
            onClick={onBuy}
            data-testid="market-buy"
          >
            {t(buttonLabel[state])}
          </Button>
        )}
        {state === 'insufficient' ? (
          // points short: the shell's purchase dialog, one click away (/points?buy=1 opens it)
          <Link
            className={buttonClass('outline', 'md', 'pm-card__more')}
            to={BUY_POINTS_PATH}
            data-testid="market-buy-points"
          >
            {t('marketplace.card.buyPoints')}
          </Link>
        ) : null}
      </div>
    </Card>
  );
}

/** How much the file holds: a video plays for its length, a photo is one image shown for its seconds, a document has pages. */
function Extent({ listing }: { listing: MarketplaceListing }) {
  const { t } = useTranslation();
  if (listing.kind === 'video') {
    // a video announced without its length (never expected once converted) shows no length rather than a wrong one
    if (listing.videoSeconds === null) return null;
    return (
      <>
        <dt>{t('marketplace.card.lengthLabel')}</dt>
        <dd data-testid="market-length">
          <time dateTime={`PT${listing.videoSeconds}S`}>{formatLength(listing.videoSeconds)}</time>
        </dd>
      </>
    );
  }
  if (listing.kind === 'image') {
    return (
      <>
        <dt>{t('marketplace.card.durationLabel')}</dt>
        <dd data-testid="market-duration">{t('marketplace.card.photoDuration', { count: listing.displayDuration })}</dd>
      </>
    );
  }
  return (
    <>
      <dt>{t('marketplace.card.pagesLabel')}</dt>
      <dd data-testid="market-pages">
        {t('marketplace.card.pages', { count: listing.pageCount, n: listing.pageCount })}
      </dd>
      <dt>{t('marketplace.card.durationLabel')}</dt>
      <dd data-testid="market-duration">{t('marketplace.card.duration', { seconds: listing.displayDuration })}</dd>
    </>
  );
}

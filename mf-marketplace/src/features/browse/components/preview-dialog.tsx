import type { MarketplaceListing } from '@pagecast/contracts';
import { Button, CopyrightDetails, Dialog, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { filePreviewQuery } from '../api/get-file-preview';

/**
 * Before buying: every page at low resolution with the server's watermark (never the full-size images); a video's
 * preview clip instead (its first seconds, small, silent, the watermark burned in), muted, with controls and its
 * watermarked poster. The video itself is sent only with a licence.
 */
export function PreviewDialog({
  listing,
  canBuy,
  onBuy,
  onClose,
}: {
  listing: MarketplaceListing;
  canBuy: boolean;
  onBuy: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const preview = useQuery(filePreviewQuery(listing.id));
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('marketplace.preview.title', { title: listing.title })}
      // bought or one's own: nothing to buy, so the note does not ask for it
      // a video's preview is a clip, not sample images of every page: its own sentences
      description={t(
        preview.data?.video
          ? listing.purchased
            ? 'marketplace.preview.videoBought'
            : listing.isOwn
              ? 'marketplace.preview.videoOwn'
              : 'marketplace.preview.videoSale'
          : listing.purchased
            ? 'marketplace.preview.noteBought'
            : listing.isOwn
              ? 'marketplace.preview.noteOwn'
              : 'marketplace.preview.note',
      )}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.close')}
          </Button>
          {canBuy ? (
            <Button onClick={onBuy} data-testid="market-preview-buy">
              {t('marketplace.card.buy')}
            </Button>
          ) : null}
        </>
      }
    >
      <div className="pc-stack" data-testid="market-preview">
        <CopyrightDetails copyright={listing.copyright} />
        {preview.isPending ? <Spinner label={t('marketplace.loading')} /> : null}
        {preview.isError ? (
          <p role="alert" className="pc-field-error">
            {t('marketplace.preview.failed')}
          </p>
        ) : null}
        {preview.data && preview.data.pages.length === 0 ? <p>{t('marketplace.preview.empty')}</p> : null}
        {preview.data?.video ? (
          <figure className="pm-preview-video">
            <video
              src={preview.data.video.url}
              poster={preview.data.video.posterUrl}
              width={preview.data.video.width}
              height={preview.data.video.height}
              muted
              autoPlay
              playsInline
              controls
              preload="metadata"
              aria-label={t('marketplace.preview.videoLabel', { title: listing.title })}
              data-testid="market-preview-video"
            >
              {t('marketplace.preview.videoUnsupported')}
            </video>
            <figcaption>
              {t('marketplace.preview.videoNote', { count: Math.round(preview.data.video.durationMs / 1000) })}
            </figcaption>
          </figure>
        ) : preview.data?.pages.length ? (
          <ul className="pm-preview">
            {preview.data.pages.map((p) => (
              <li key={p.pageNumber}>
                <figure>
                  <img
                    src={p.url}
                    alt={t('marketplace.preview.page', { n: p.pageNumber })}
                    loading="lazy"
                    data-testid="market-preview-page"
                  />
                  <figcaption aria-hidden="true">{t('marketplace.preview.page', { n: p.pageNumber })}</figcaption>
                </figure>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Dialog>
  );
}

import type { FilePage, ScreenRotation, ShownReport } from '@pagecast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import type { Titles } from '../../titles';
import { describeShows } from '../model/health-text';

/** The owner's pages of a file (GET /api/files/:id/pages: with their thumbnails); the default fetcher reads it. */
const pagesQuery = (fileId: string) => ({
  queryKey: [`/api/files/${encodeURIComponent(fileId)}/pages`],
  staleTime: 60_000,
});

/**
 * What a screen shows, small: the thumbnail of the page it reports (the owner's page image), a takeover's message
 * or black, in a frame shaped as the screen hangs (portrait for 90° and 270°): the picture is upright, as people in
 * front of the screen see it.
 */
export function ShownThumbnail({
  shows,
  rotation,
  titles,
}: {
  shows: ShownReport | null;
  rotation: ScreenRotation;
  titles: Titles;
}) {
  const { t } = useTranslation();
  const fileId = shows?.kind === 'page' ? shows.fileId : null;
  const pages = useQuery<FilePage[]>({ ...pagesQuery(fileId ?? ''), enabled: Boolean(fileId) });
  const page = shows?.kind === 'page' ? pages.data?.find((p) => p.pageNumber === shows.page) : undefined;
  const portrait = rotation === 90 || rotation === 270;
  const what = describeShows(t, shows, titles);
  return (
    <figure
      className={`ph-thumb ${portrait ? 'ph-thumb--portrait' : 'ph-thumb--landscape'}`}
      data-testid="health-thumb"
      data-rotation={rotation}
      data-kind={shows?.kind ?? 'none'}
    >
      {page ? (
        <img src={page.thumbPath} alt={t('screens.health.thumbAlt', { what })} />
      ) : (
        <div className="ph-thumb__placeholder" role="img" aria-label={t('screens.health.thumbAlt', { what })}>
          {shows?.kind === 'blank' ? null : <span>{what}</span>}
        </div>
      )}
    </figure>
  );
}

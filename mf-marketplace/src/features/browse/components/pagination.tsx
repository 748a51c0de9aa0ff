import type { Pagination as PaginationInfo } from '@pagecast/contracts';
import { Button } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { shownCount } from '../model/marketplace-rules';

/** Previous/next with 'page x of total' and 'x of total shown' (spec point 2). */
export function Pagination({
  pagination,
  onThisPage,
  onPage,
}: {
  pagination: PaginationInfo;
  onThisPage: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const { page, totalPages, total, limit, hasMore } = pagination;
  return (
    <nav className="pm-pagination" aria-label={t('marketplace.pagination.label')}>
      <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid="market-prev">
        {t('marketplace.pagination.previous')}
      </Button>
      <div className="pm-pagination__texts">
        <span data-testid="market-page-of">
          {t('marketplace.pagination.pageOf', { page, total: Math.max(totalPages, 1) })}
        </span>
        <span className="pc-muted" data-testid="market-shown">
          {t('marketplace.pagination.shown', {
            count: shownCount(page, limit, onThisPage),
            shown: shownCount(page, limit, onThisPage),
            total,
          })}
        </span>
      </div>
      <Button variant="outline" disabled={!hasMore} onClick={() => onPage(page + 1)} data-testid="market-next">
        {t('marketplace.pagination.next')}
      </Button>
    </nav>
  );
}

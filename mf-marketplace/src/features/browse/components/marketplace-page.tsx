import type { MarketplaceListing } from '@pagecast/contracts';
import { Button, Card, pointsSummaryQuery, Spinner, useAuth, useRequireLogin, useSessionExpired } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { marketplaceQuery } from '../api/search-marketplace';
import {
  fetchFailure,
  initialSearch,
  isFreeMember,
  type MarketplaceSearch,
  PAGE_SIZE,
  purchaseState,
  withQuery,
  withTagAdded,
  withTagRemoved,
  withTagsCleared,
} from '../model/marketplace-rules';
import { ListingCard } from './listing-card';
import { Pagination } from './pagination';
import { PreviewDialog } from './preview-dialog';
import { PurchaseDialog } from './purchase-dialog';
import { SearchBox } from './search-box';
import { TagFilter } from './tag-filter';
import './marketplace.css';

declare const __PAGECAST_BUILD_LABEL__: string | undefined;
/** Which build of this remote is on screen (set by the federation build; absent in unit tests). */
const buildLabel = typeof __PAGECAST_BUILD_LABEL__ === 'string' ? __PAGECAST_BUILD_LABEL__ : undefined;

/** Marketplace (/marketplace). Signed-in only: a visitor is remembered, told to log in and sent to /login. */
export function MarketplacePage() {
  const { allowed } = useRequireLogin();
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_marketplace" data-build={buildLabel}>
      {allowed ? <Marketplace /> : <Spinner />}
    </div>
  );
}

export function Marketplace() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const sessionExpired = useSessionExpired();
  const [search, setSearch] = useState<MarketplaceSearch>(initialSearch);
  const [buying, setBuying] = useState<MarketplaceListing | null>(null);
  const [previewing, setPreviewing] = useState<MarketplaceListing | null>(null);
  const result = useQuery(marketplaceQuery(search));
  const balance = useQuery({ ...pointsSummaryQuery, enabled: Boolean(user) });
  const buyer = { points: balance.data?.balance ?? user?.points ?? 0, membershipTier: user?.membershipTier };
  const free = isFreeMember(buyer);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure
  useEffect(() => {
    if (result.isError) sessionExpired(result.error);
  }, [result.isError]);

  const files = result.data?.files ?? [];
  const filtering = Boolean(search.q.trim() || search.tags.length);
  return (
    <div className="pc-stack pm-page" data-testid="marketplace-page">
      <header className="pm-head">
        <h1 className="pc-page__title">{t('marketplace.title')}</h1>
        <p className="pc-page__subtitle pc-muted">{t('marketplace.subtitle')}</p>
      </header>

      {free ? (
        <div className="pm-banner" role="status" data-testid="market-free-banner">
          <strong>{t('marketplace.freeBanner.title')}</strong>
          <span>{t('marketplace.freeBanner.text')}</span>
        </div>
      ) : null}

      <Card className="pm-filters">
        <SearchBox value={search.q} onSearch={(q) => setSearch((s) => withQuery(s, q))} />
        <TagFilter
          tags={search.tags}
          onAdd={(tag) => setSearch((s) => withTagAdded(s, tag))}
          onRemove={(tag) => setSearch((s) => withTagRemoved(s, tag))}
          onClear={() => setSearch((s) => withTagsCleared(s))}
        />
      </Card>

      {result.isError && !result.data ? (
        <div className="pc-state-card" role="alert" data-testid="market-error">
          <p>{t('marketplace.fetchFailed', fetchFailure(result.error))}</p>
          <Button variant="outline" onClick={() => void result.refetch()}>
            {t('marketplace.retry')}
          </Button>
        </div>
      ) : result.isPending ? (
        <div className="pm-loading" data-testid="market-loading">
          <Spinner label={t('marketplace.loading')} />
        </div>
      ) : files.length === 0 ? (
        <div className="pc-state-card" data-testid="market-empty">
          <p>{filtering ? t('marketplace.empty.filtered') : t('marketplace.empty.none')}</p>
          {filtering ? (
            <Button variant="outline" onClick={() => setSearch(initialSearch)} data-testid="market-reset">
              {t('marketplace.empty.reset')}
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          <ul className="pm-grid" aria-busy={result.isFetching} data-testid="market-grid">
            {files.slice(0, PAGE_SIZE).map((listing) => (
              <li key={listing.id}>
                <ListingCard
                  listing={listing}
                  state={purchaseState(listing, buyer)}
                  onBuy={() => setBuying(listing)}
                  onPreview={() => setPreviewing(listing)}
                />
              </li>
            ))}
          </ul>
          {result.data ? (
            <Pagination
              pagination={result.data.pagination}
              onThisPage={files.length}
              onPage={(page) => {
                setSearch((s) => ({ ...s, page }));
                // the next page starts at the top of the list, not where the pager was
                document.querySelector('.pm-page')?.scrollIntoView?.({ block: 'start' });
              }}
            />
          ) : null}
        </>
      )}

      {previewing ? (
        <PreviewDialog
          listing={previewing}
          canBuy={purchaseState(previewing, buyer) === 'available'}
          onBuy={() => {
            setBuying(previewing);
            setPreviewing(null);
          }}
          onClose={() => setPreviewing(null)}
        />
      ) : null}
      {buying ? <PurchaseDialog listing={buying} balance={buyer.points} onClose={() => setBuying(null)} /> : null}
    </div>
  );
}

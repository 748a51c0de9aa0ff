import type { MarketplacePage } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type MarketplaceSearch, searchParams } from '../model/marketplace-rules';

export const marketplaceQueryKey = ['/api/marketplace'] as const;

/** GET /api/marketplace?q&tags&page&limit=24; the last page stays on screen while the next one loads. */
export const marketplaceQuery = (search: MarketplaceSearch) =>
  queryOptions<MarketplacePage>({
    queryKey: [...marketplaceQueryKey, search],
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/marketplace?${searchParams(search).toString()}`, {
        credentials: 'include',
        signal,
      });
      await throwIfResNotOk(res);
      return (await res.json()) as MarketplacePage;
    },
    placeholderData: keepPreviousData,
  });

import type { MarketplacePage } from '@pagecast/contracts';
import { throwIfResNotOk, workspaceHeaders } from '@pagecast/ui';
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
        // the workspace the page acts in (a host whose @pagecast/ui predates it: the person's own)
        headers: typeof workspaceHeaders === 'function' ? workspaceHeaders() : {},
      });
      await throwIfResNotOk(res);
      return (await res.json()) as MarketplacePage;
    },
    placeholderData: keepPreviousData,
  });

import {
  type MarketplaceListing,
  type MarketplacePage,
  type MarketplaceQuery,
  previewImagePath,
} from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { shownKind } from '../domain/listing';
import { foldTitle, pagination } from '../domain/search';

/** A page of listings, newest first, with the caller's own files and active licences marked. */
export async function searchListings(
  ctx: Pick<ServiceContext, 'data' | 'clock'>,
  userId: string,
  query: MarketplaceQuery,
): Promise<MarketplacePage> {
  const { page, limit, tags } = query;
  const folded = query.q ? foldTitle(query.q) : '';
  const { rows, total } = await ctx.data.listings.search({
    titleFragment: folded || undefined,
    tags,
    skip: (page - 1) * limit,
    limit,
  });
  const licensed = await ctx.data.purchases.activeFileIds(
    userId,
    rows.map((r) => r._id),
    ctx.clock.now(),
  );
  const files: MarketplaceListing[] = rows.map((r) => ({
    id: r._id,
    title: r.title,
    publishPrice: r.publishPrice,
    ...shownKind(r),
    pageCount: r.pageCount,
    displayDuration: r.displayDuration,
    updatedAt: r.updatedAt.toISOString(),
    tags: r.tags,
    sellerId: r.sellerId,
    thumbnailUrl: previewImagePath(r._id, 1, 'thumb'),
    previewUrl: `/api/files/${encodeURIComponent(r._id)}/preview`,
    purchased: licensed.has(r._id),
    isOwn: r.sellerId === userId,
    copyright: r.copyright ?? null,
  }));
  return { files, pagination: pagination(page, limit, total) };
}

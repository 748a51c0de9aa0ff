import { z } from 'zod';
import { constants } from '../constants';
import { ListingCopyright } from '../events';
import { defineRoutes } from '../route-def';
import { FileKind } from './files';
import { Id, IsoDateTime, normalizeTags } from '../validation';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const queryInt = (v: unknown) => {
  const b = blankToUndefined(v);
  return typeof b === 'string' ? Number(b) : b;
};

/** GET /api/marketplace: title search, tags (repeated; also comma-separated), page from 1, 24 per page. */
export const MarketplaceQuery = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(100, 'validation.searchTooLong').optional()),
  tags: z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      if (b === undefined) return undefined;
      const list = Array.isArray(b) ? b : [b];
      return list.flatMap((t) => (typeof t === 'string' ? t.split(',') : [t]));
    },
    z
      .array(z.string({ error: 'validation.tagInvalid' }))
      .transform(normalizeTags)
      .pipe(
        z
          .array(z.string().max(constants.tags.maxLength, 'validation.tagLength'))
          .max(constants.tags.maxCount, 'validation.tagsMax20'),
      )
      .default([]),
  ),
  page: z.preprocess(
    queryInt,
    z
      .number({ error: 'validation.pageInvalid' })
      .int('validation.pageInvalid')
      .min(1, 'validation.pageInvalid')
      .default(1),
  ),
  limit: z.preprocess(
    queryInt,
    z
      .number({ error: 'validation.limitRange' })
      .int('validation.limitRange')
      .min(1, 'validation.limitRange')
      .max(constants.marketplacePageSize, 'validation.limitRange')
      .default(constants.marketplacePageSize),
  ),
});
export type MarketplaceQuery = z.infer<typeof MarketplaceQuery>;

export const MarketplaceListing = z.object({
  id: z.string(),
  title: z.string(),
  publishPrice: z.number().int(),
  /**
   * what is sold: a document (pages), a photo (one image shown for displayDuration seconds) or a video (plays for
   * videoSeconds). A listing announced before kinds were carried, and never since, answers 'pdf': every file on sale
   * then was a document, and the documents' kinds are shown alike.
   */
  kind: FileKind,
  /** a video's length in whole seconds (rounded); null for other kinds, and for a video announced without it */
  videoSeconds: z.number().int().nonnegative().nullable(),
  pageCount: z.number().int().nonnegative(),
  displayDuration: z.number().int(),
  updatedAt: IsoDateTime,
  tags: z.array(z.string()),
  sellerId: z.string(),
  /** the first page as a small image (file-conversion's preview; no access to the full page) */
  thumbnailUrl: z.string(),
  /** the file's preview: every page at low resolution with a watermark */
  previewUrl: z.string(),
  /** the caller holds a licence that has not expired */
  purchased: z.boolean(),
  /** the caller is the seller */
  isOwn: z.boolean(),
  /** the author, company and copyright notice the seller stated; null for a listing announced before they were carried */
  copyright: ListingCopyright.nullable(),
});
export type MarketplaceListing = z.infer<typeof MarketplaceListing>;

export const Pagination = z.object({
  page: z.number().int().positive(),
  limit: z.number().int().positive(),
  total: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof Pagination>;

export const MarketplacePage = z.object({ files: z.array(MarketplaceListing), pagination: Pagination });
export type MarketplacePage = z.infer<typeof MarketplacePage>;

export const PurchaseParams = z.object({ id: Id });
/**
 * POST /api/marketplace/purchase/:id body: the price the buyer saw and confirmed. The purchase is made at that price
 * or not at all: a listing whose price is now another answers 409 PRICE_CHANGED with `details: { price }` (the
 * current price) and nothing is charged. Required: a body without it is refused (400 VALIDATION).
 */
export const PurchaseRequest = z.object(
  {
    expectedPrice: z
      .number({ error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.invalid') })
      .int('validation.invalid')
      .positive('validation.invalid'),
  },
  { error: 'validation.invalid' },
);
export type PurchaseRequest = z.infer<typeof PurchaseRequest>;
export const PurchaseResponse = z.object({
  purchaseId: z.string(),
  fileId: z.string(),
  pointsSpent: z.number().int(),
  /** the buyer's balance after the purchase */
  balance: z.number().int().nonnegative(),
  expiresAt: IsoDateTime,
});
export type PurchaseResponse = z.infer<typeof PurchaseResponse>;

export const marketplaceRoutes = defineRoutes([
  {
    id: 'searchMarketplace',
    method: 'get',
    path: '/api/marketplace',
    service: 'marketplace',
    auth: 'session',
    action: 'marketplace.read',
    summary: 'Published files: title search, tag filter (all tags), 24 per page',
    query: MarketplaceQuery,
    response: MarketplacePage,
  },
  {
    id: 'purchaseFile',
    method: 'post',
    path: '/api/marketplace/purchase/:id',
    service: 'marketplace',
    auth: 'session',
    action: 'billing.spend',
    summary:
      'Buy a published file with points (30-day licence) at the price the buyer confirmed; 409 PRICE_CHANGED ' +
      'with details.price when the price is now another (nothing charged)',
    params: PurchaseParams,
    body: PurchaseRequest,
    response: PurchaseResponse,
  },
]);

// Pure rules of the marketplace screen (spec points 2, 6 and 9): what a card's purchase button says, the tag filter
// and the query sent. No React, no fetch, so they are tested alone.
import { constants, type MarketplaceListing, type MembershipTierValue, normalizeTags } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';

export const PAGE_SIZE: number = constants.marketplacePageSize;
export const LICENCE_DAYS: number = constants.licenceDays;

export interface MarketplaceSearch {
  q: string;
  tags: string[];
  page: number;
}

export const initialSearch: MarketplaceSearch = { q: '', tags: [], page: 1 };

/** GET /api/marketplace's query: q when not blank, tags repeated, page, limit=24. */
export function searchParams(search: MarketplaceSearch): URLSearchParams {
  const params = new URLSearchParams();
  const q = search.q.trim();
  if (q) params.set('q', q);
  for (const tag of search.tags) params.append('tags', tag);
  params.set('page', String(search.page));
  params.set('limit', String(PAGE_SIZE));
  return params;
}

/** A new title search starts again from page 1 (spec point 2). */
export function withQuery(search: MarketplaceSearch, q: string): MarketplaceSearch {
  return q === search.q ? search : { ...search, q, page: 1 };
}

/** Tag filter: trimmed, lowercased, no duplicates, at most 20 of at most 30 characters; a change resets the page. */
export function withTagAdded(search: MarketplaceSearch, raw: string): MarketplaceSearch {
  const [tag] = normalizeTags([raw]);
  if (!tag || tag.length > constants.tags.maxLength || search.tags.includes(tag)) return search;
  if (search.tags.length >= constants.tags.maxCount) return search;
  return { ...search, tags: [...search.tags, tag], page: 1 };
}

export function withTagRemoved(search: MarketplaceSearch, tag: string): MarketplaceSearch {
  return { ...search, tags: search.tags.filter((t) => t !== tag), page: 1 };
}

export function withTagsCleared(search: MarketplaceSearch): MarketplaceSearch {
  return search.tags.length ? { ...search, tags: [], page: 1 } : search;
}

export type PurchaseState = 'own' | 'licensed' | 'free-member' | 'insufficient' | 'available';

export interface Buyer {
  points?: number;
  membershipTier?: string;
}

/** What the purchase button of one card shows; only 'available' lets the member open the confirmation. */
export function purchaseState(listing: Pick<MarketplaceListing, 'isOwn' | 'purchased' | 'publishPrice'>, buyer: Buyer) {
  if (listing.isOwn) return 'own' satisfies PurchaseState;
  if (listing.purchased) return 'licensed' satisfies PurchaseState;
  if (isFreeMember(buyer)) return 'free-member' satisfies PurchaseState;
  if ((buyer.points ?? 0) < listing.publishPrice) return 'insufficient' satisfies PurchaseState;
  return 'available' satisfies PurchaseState;
}

export function isFreeMember(buyer: Buyer): boolean {
  return (constants.tiersThatCannotPurchase as readonly string[]).includes(
    (buyer.membershipTier ?? 'free') as MembershipTierValue,
  );
}

/** 'x of total shown': how many listings the pages up to this one hold. */
export function shownCount(page: number, limit: number, onThisPage: number): number {
  return (page - 1) * limit + onThisPage;
}

/**
 * The listing's current price when a purchase was refused because the price is no longer the one confirmed
 * (409 PRICE_CHANGED, `details.price`); undefined for any other failure.
 */
export function changedPrice(error: unknown): number | undefined {
  if (!(error instanceof HttpError) || error.code !== 'PRICE_CHANGED') return undefined;
  const details = error.data?.details as { price?: unknown } | undefined;
  const price = details?.price;
  return typeof price === 'number' && Number.isInteger(price) && price > 0 ? price : undefined;
}

/** 'HTTP {status}: {text}' (spec point 8): the server's own message when it sent one, else its body or status text. */
export function fetchFailure(error: unknown): { status: number; text: string } {
  if (error instanceof HttpError) {
    return { status: error.status, text: error.serverMessage ?? (error.body || error.message.replace(/^\d+: /, '')) };
  }
  return { status: 0, text: error instanceof Error ? error.message : String(error) };
}

/** A video's length as File management and the player show it: m:ss, or h:mm:ss from an hour. */
export function formatLength(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = String(totalSeconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

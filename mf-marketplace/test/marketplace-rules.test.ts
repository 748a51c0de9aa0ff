import { describe, expect, it } from 'vitest';
import { HttpError } from '@pagecast/ui';
import {
  changedPrice,
  fetchFailure,
  initialSearch,
  purchaseState,
  searchParams,
  shownCount,
  withQuery,
  withTagAdded,
  withTagRemoved,
  withTagsCleared,
} from '../src/features/browse/model/marketplace-rules';

const listing = { isOwn: false, purchased: false, publishPrice: 3000 };

describe('purchase button state (spec points 2 and 6)', () => {
  it('own files and files under licence are marked before anything else', () => {
    expect(purchaseState({ ...listing, isOwn: true }, { points: 0, membershipTier: 'free' })).toBe('own');
    expect(purchaseState({ ...listing, purchased: true }, { points: 0, membershipTier: 'free' })).toBe('licensed');
  });
  it('a free member cannot buy whatever the balance; a missing tier counts as free', () => {
    expect(purchaseState(listing, { points: 99_999, membershipTier: 'free' })).toBe('free-member');
    expect(purchaseState(listing, { points: 99_999 })).toBe('free-member');
  });
  it('says ポイント不足 below the price and allows buying at exactly the price', () => {
    expect(purchaseState(listing, { points: 2999, membershipTier: 'standard' })).toBe('insufficient');
    expect(purchaseState(listing, { points: 3000, membershipTier: 'standard' })).toBe('available');
    expect(purchaseState(listing, { points: 3000, membershipTier: 'trial' })).toBe('available');
  });
});

describe('search state', () => {
  it('a new title search goes back to page 1; the same text keeps the page', () => {
    const onPage3 = { ...initialSearch, q: 'abc', page: 3 };
    expect(withQuery(onPage3, 'abcd')).toEqual({ q: 'abcd', tags: [], page: 1 });
    expect(withQuery(onPage3, 'abc')).toBe(onPage3);
  });
  it('tags are trimmed, lowercased and not repeated; adding, removing and clearing reset the page', () => {
    let s = { ...initialSearch, page: 4 };
    s = withTagAdded(s, '  Sale ');
    expect(s).toEqual({ q: '', tags: ['sale'], page: 1 });
    s = { ...withTagAdded(s, '広告'), page: 2 };
    expect(withTagAdded(s, 'SALE')).toBe(s);
    expect(withTagAdded(s, '   ')).toBe(s);
    expect(withTagAdded(s, 'x'.repeat(31))).toBe(s);
    expect(withTagRemoved(s, 'sale')).toEqual({ q: '', tags: ['広告'], page: 1 });
    expect(withTagsCleared(s)).toEqual({ q: '', tags: [], page: 1 });
  });
  it('holds at most 20 tags', () => {
    let s = initialSearch;
    for (let i = 0; i < 25; i++) s = withTagAdded(s, `t${i}`);
    expect(s.tags).toHaveLength(20);
  });
  it('sends q only when not blank, tags repeated, and limit=24', () => {
    expect(searchParams({ q: '  ', tags: [], page: 1 }).toString()).toBe('page=1&limit=24');
    expect(searchParams({ q: ' 会議 ', tags: ['a', 'b'], page: 2 }).toString()).toBe(
      `q=${encodeURIComponent('会議')}&tags=a&tags=b&page=2&limit=24`,
    );
  });
  it("counts 'x of total shown' up to the current page", () => {
    expect(shownCount(1, 24, 24)).toBe(24);
    expect(shownCount(3, 24, 5)).toBe(53);
  });
});

describe("'HTTP {status}: {text}'", () => {
  it('takes the server message of a JSON error, else the body, else the status text', () => {
    expect(fetchFailure(new HttpError(400, 'Bad Request', '{"code":"VALIDATION","message":"件数が不正です"}'))).toEqual(
      {
        status: 400,
        text: '件数が不正です',
      },
    );
    expect(fetchFailure(new HttpError(502, 'Bad Gateway', 'upstream down'))).toEqual({
      status: 502,
      text: 'upstream down',
    });
    expect(fetchFailure(new HttpError(503, 'Service Unavailable', ''))).toEqual({
      status: 503,
      text: 'Service Unavailable',
    });
  });
});

describe('a purchase refused for a changed price', () => {
  const refusal = (status: number, body: unknown) => new HttpError(status, '', JSON.stringify(body));
  it('gives the current price of PRICE_CHANGED, and nothing for any other failure', () => {
    expect(changedPrice(refusal(409, { code: 'PRICE_CHANGED', message: 'x', details: { price: 10000 } }))).toBe(10000);
    expect(changedPrice(refusal(409, { code: 'ALREADY_PURCHASED', message: 'x', details: { price: 10000 } }))).toBe(
      undefined,
    );
    expect(changedPrice(refusal(409, { code: 'PRICE_CHANGED', message: 'x' }))).toBeUndefined();
    expect(changedPrice(refusal(409, { code: 'PRICE_CHANGED', message: 'x', details: { price: '10000' } }))).toBe(
      undefined,
    );
    expect(changedPrice(new Error('PRICE_CHANGED'))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { foldTitle, pagination } from './search';

describe('title folding', () => {
  it('makes full-width, half-width and case variants one form', () => {
    expect(foldTitle('ＡＢＣ　１２３')).toBe('abc 123');
    expect(foldTitle('ﾃｽﾄ ｶﾞｲﾄﾞ')).toBe('テスト ガイド');
    expect(foldTitle('Tokyo')).toBe(foldTitle('ＴＯＫＹＯ'));
  });
  it('computes the pagination of the spec', () => {
    expect(pagination(1, 24, 0)).toEqual({ page: 1, limit: 24, total: 0, totalPages: 0, hasMore: false });
    expect(pagination(1, 24, 24)).toEqual({ page: 1, limit: 24, total: 24, totalPages: 1, hasMore: false });
    expect(pagination(1, 24, 25)).toEqual({ page: 1, limit: 24, total: 25, totalPages: 2, hasMore: true });
    expect(pagination(400, 24, 10_000)).toMatchObject({ totalPages: 417, hasMore: true });
  });
});

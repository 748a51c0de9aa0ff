import { describe, expect, it } from 'vitest';
import { escapeRegex, foldTitle, pagination } from './search';

describe('title folding', () => {
  it('makes full-width, half-width and case variants one form', () => {
    expect(foldTitle('ＡＢＣ　１２３')).toBe('abc 123');
    expect(foldTitle('ﾃｽﾄ ｶﾞｲﾄﾞ')).toBe('テスト ガイド');
    expect(foldTitle('Tokyo')).toBe(foldTitle('ＴＯＫＹＯ'));
  });
  it('escapes every regex character so the query matches literally', () => {
    const q = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p-q';
    expect(new RegExp(escapeRegex(q)).test(q)).toBe(true);
    expect(new RegExp(escapeRegex('.*')).test('abc')).toBe(false);
  });
  it('computes the pagination of the spec', () => {
    expect(pagination(1, 24, 0)).toEqual({ page: 1, limit: 24, total: 0, totalPages: 0, hasMore: false });
    expect(pagination(1, 24, 24)).toEqual({ page: 1, limit: 24, total: 24, totalPages: 1, hasMore: false });
    expect(pagination(1, 24, 25)).toEqual({ page: 1, limit: 24, total: 25, totalPages: 2, hasMore: true });
    expect(pagination(400, 24, 10_000)).toMatchObject({ totalPages: 417, hasMore: true });
  });
});

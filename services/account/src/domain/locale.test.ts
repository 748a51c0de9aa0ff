import { describe, expect, it } from 'vitest';
import { chooseLocale, localeFromAccepted } from './locale';

// `accepted` is express's req.acceptsLanguages(): the Accept-Language tags by quality then order, ['*'] without one.
describe('the member language', () => {
  it('is the first supported language of the browser list, region or case aside', () => {
    expect(localeFromAccepted(['it-IT', 'it', 'en'])).toBe('it');
    expect(localeFromAccepted(['de', 'EN-gb', 'fr'])).toBe('en');
    expect(localeFromAccepted(['de', '*'])).toBeUndefined(); // `*` names no language
    expect(localeFromAccepted(['*'])).toBeUndefined();
  });

  it('of a mail is the account’s own first, whatever the page or the browser says', () => {
    expect(chooseLocale({ account: 'fr', page: 'en', browser: ['ja'] })).toBe('fr');
    expect(chooseLocale({ account: 'it', browser: ['ja'] })).toBe('it');
  });

  it('of an account without one (or a new one) is the page’s, then the browser’s, then Japanese', () => {
    expect(chooseLocale({ account: null, page: 'en', browser: ['ja'] })).toBe('en');
    expect(chooseLocale({ page: 'fr-CA', browser: ['ja'] })).toBe('fr');
    expect(chooseLocale({ account: 'xx', page: 'xx', browser: ['de', 'it-IT'] })).toBe('it');
    expect(chooseLocale({ browser: ['*'] })).toBe('ja');
    expect(chooseLocale({})).toBe('ja');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

// initI18n is once per page (module state), so every case loads a fresh copy of the module.
async function freshInit() {
  vi.resetModules();
  const mod = await import('../src/i18n');
  return mod.initI18n();
}

function setNavigatorLanguages(list: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: list, configurable: true });
  Object.defineProperty(window.navigator, 'language', { value: list[0], configurable: true });
}

describe('initI18n', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute('lang');
  });

  it('falls back to Japanese for an unsupported browser language and sets <html lang>', async () => {
    setNavigatorLanguages(['de-DE', 'de']);
    const i18n = await freshInit();
    expect(i18n.resolvedLanguage).toBe('ja');
    expect(i18n.t('toasts.loginRequired')).toBe('ログインが必要です');
    expect(document.documentElement.lang).toBe('ja');
  });

  it('uses only the language part of the browser language and caches the choice', async () => {
    setNavigatorLanguages(['fr-CA', 'fr']);
    const i18n = await freshInit();
    expect(i18n.resolvedLanguage).toBe('fr');
    expect(i18n.t('nav.logout')).toBe('Se déconnecter');
    expect(localStorage.getItem('i18nextLng')).toMatch(/^fr/);
    expect(document.documentElement.lang).toBe('fr');
  });

  it('prefers the stored choice over the browser language', async () => {
    setNavigatorLanguages(['fr-FR']);
    localStorage.setItem('i18nextLng', 'it');
    const i18n = await freshInit();
    expect(i18n.resolvedLanguage).toBe('it');
    expect(i18n.t('common.retry')).toBe('Riprova');
  });

  it('falls back to the Japanese text for a key missing in another language', async () => {
    localStorage.setItem('i18nextLng', 'en');
    const i18n = await freshInit();
    i18n.addResource('ja', 'translation', 'only.inJapanese', '日本語のみ');
    expect(i18n.t('only.inJapanese')).toBe('日本語のみ');
    await i18n.changeLanguage('en-GB');
    expect(i18n.resolvedLanguage).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('detectLanguage (the entry preloads its catalogue before i18next starts)', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute('lang');
  });

  const cases: Array<{ name: string; browser: string[]; stored?: string; html?: string }> = [
    { name: 'a French browser', browser: ['fr-CA', 'fr'] },
    { name: 'an unsupported browser language', browser: ['de-DE', 'de'] },
    { name: 'a second browser language that is supported', browser: ['de-DE', 'it-IT'] },
    { name: 'a stored choice over the browser', browser: ['fr-FR'], stored: 'it' },
    { name: 'a stored full code', browser: ['ja-JP'], stored: 'en-GB' },
    { name: 'a stored unsupported code', browser: ['fr-FR'], stored: 'xx' },
    { name: 'the page language when the browser says nothing supported', browser: ['de'], html: 'en' },
  ];
  for (const c of cases) {
    it(`names the language initI18n picks, for ${c.name}`, async () => {
      setNavigatorLanguages(c.browser);
      if (c.stored) localStorage.setItem('i18nextLng', c.stored);
      if (c.html) document.documentElement.lang = c.html;
      vi.resetModules();
      const { detectLanguage } = await import('../src/catalogues');
      const predicted = detectLanguage();
      const i18n = await freshInit();
      expect(predicted).toBe(i18n.resolvedLanguage);
    });
  }
});

describe('rememberLanguage (the gateway prerenders a visitor page in the cookie language, else the browser one)', () => {
  const languageCookie = () =>
    document.cookie
      .split('; ')
      .find((c) => c.startsWith('pc_lang='))
      ?.slice('pc_lang='.length);
  afterEach(() => {
    localStorage.clear();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's own cookie jar, cleared between cases
    document.cookie = 'pc_lang=; path=/; max-age=0';
  });

  it("keeps a language that is not the browser's in a cookie, and drops the cookie once they agree again", async () => {
    setNavigatorLanguages(['en-US', 'en']);
    vi.resetModules();
    const { rememberLanguage } = await import('../src/catalogues');
    rememberLanguage('en');
    expect(languageCookie()).toBeUndefined(); // Accept-Language already says it
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    rememberLanguage('fr-FR');
    expect(languageCookie()).toBe('fr');
    rememberLanguage('en');
    expect(languageCookie()).toBeUndefined();
    rememberLanguage('xx');
    expect(languageCookie()).toBeUndefined(); // nothing the server could serve
  });
});

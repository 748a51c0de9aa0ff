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

// i18next set-up of spec point 9: ja, en, fr, it; fallback ja; only the language part of a code; detection order
// stored choice, browser language, page language attribute (detectLanguage, which the shell's entry also uses to
// preload the catalogue: one detection, not two that must agree); the language in use kept in localStorage.
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogueLoaders, detectLanguage, fallbackLanguage, languages, rememberLanguage } from './catalogues';
import ja from './locales/ja/index';

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = catalogueLoaders[language as keyof typeof catalogueLoaders];
    if (!load) return callback(null, language === 'ja' ? ja : {});
    load().then(
      (mod) => callback(null, mod.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** Sets <html lang> to the language in use. */
export function setHtmlLang(language: string | undefined) {
  if (typeof document === 'undefined' || !language) return;
  document.documentElement.lang = language;
}

let ready: Promise<I18n> | undefined;

/**
 * Initialises the one i18next instance (idempotent: the shell and a remote's standalone page may both call it;
 * @pagecast/i18n is a federation singleton, so there is one instance in the page).
 */
export function initI18n(options: { lng?: string } = {}): Promise<I18n> {
  ready ??= (async () => {
    const instance = i18next.createInstance();
    instance.on('languageChanged', () => {
      const language = instance.resolvedLanguage ?? instance.language;
      setHtmlLang(language);
      rememberLanguage(language);
    });
    await instance
      .use(lazyCatalogues)
      .use(initReactI18next)
      .init({
        lng: options.lng ?? detectLanguage(),
        resources: { ja: { translation: ja } },
        partialBundledLanguages: true,
        supportedLngs: [...languages],
        fallbackLng: fallbackLanguage,
        load: 'languageOnly',
        nonExplicitSupportedLngs: true,
        returnNull: false,
        interpolation: { escapeValue: false }, // React escapes
        react: { useSuspense: false },
      });
    setHtmlLang(instance.resolvedLanguage ?? instance.language);
    return instance;
  })();
  return ready;
}

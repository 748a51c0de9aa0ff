export { fallbackLanguage, LANGUAGE_STORAGE_KEY, type Language, languages } from './catalogues';
export { initI18n, setHtmlLang } from './i18n';
export { LanguageSwitcher } from './language-switcher';

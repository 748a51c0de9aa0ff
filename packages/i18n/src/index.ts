export {
  fallbackLanguage,
  initI18n,
  LANGUAGE_STORAGE_KEY,
  type Language,
  languages,
  setHtmlLang,
} from './i18n';
export { LanguageSwitcher } from './language-switcher';

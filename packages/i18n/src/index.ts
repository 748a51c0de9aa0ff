export { fallbackLanguage, LANGUAGE_STORAGE_KEY, type Language, languages } from './catalogues';
export { initI18n, setHtmlLang } from './i18n';
export { LanguageSwitcher } from './language-switcher';
// The front ends translate through this module, never through 'react-i18next' itself (biome refuses the import), as
// routing goes through @pagecast/router: a module shared through Module Federation is built whole, since a remote
// deployed later may import any of its exports. Shared as itself, react-i18next put its <Trans> machinery (an HTML
// parser and an entity decoder, about 15 KB of minified script) on every first screen, which no page uses; through
// this singleton only what it re-exports is built. A front end that needs more adds it here.
export { useTranslation } from 'react-i18next';

// Which catalogue a page will use, and its loaders, without i18next: the shell's entry calls preloadCatalogue()
// before its async boundary, so the visitor's catalogue downloads beside the framework's chunks instead of after
// i18next has started (on a slow phone that was one more round trip before the first screen).
import { constants, LANGUAGE_COOKIE } from '@pagecast/contracts';
import type { ResourceKey } from 'i18next';

// the spec's list, as the gateway reads it too (it picks the language of a prerendered page)
export const languages = constants.languages;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = constants.fallbackLanguage;
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/**
 * Japanese is bundled (source and fallback); the other catalogues are separate chunks loaded on demand, named
 * 'catalogue-<language>' so that the shell's build can list their files for the gateway to preload.
 */
export const catalogueLoaders: Record<Exclude<Language, 'ja'>, () => Promise<{ default: ResourceKey }>> = {
  en: () => import(/* webpackChunkName: "catalogue-en" */ './locales/en/index'),
  fr: () => import(/* webpackChunkName: "catalogue-fr" */ './locales/fr/index'),
  it: () => import(/* webpackChunkName: "catalogue-it" */ './locales/it/index'),
};

/** The supported language a code names ('fr-CA' → 'fr'), if any. */
export function supportedLanguage(code: string | null | undefined): Language | undefined {
  const part = code?.trim().toLowerCase().split(/[-_]/)[0];
  return languages.find((l) => l === part);
}

/**
 * The language a page starts in (initI18n's, and the catalogue the entry preloads): the stored choice, the
 * browser's languages, the page's lang attribute, else Japanese.
 */
export function detectLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage refused (private mode, sandboxed frame): the browser's languages decide
  }
  return (
    supportedLanguage(stored) ??
    browserLanguage() ??
    supportedLanguage(document.documentElement.lang) ??
    fallbackLanguage
  );
}

/** The first supported language of the browser's own list (the one its Accept-Language header gives), if any. */
function browserLanguage(): Language | undefined {
  for (const code of [...(navigator.languages ?? []), navigator.language]) {
    const language = supportedLanguage(code);
    if (language) return language;
  }
  return undefined;
}

/**
 * Keeps the language in use for the next visit: in storage (what detectLanguage reads first), and in a cookie when
 * it is not the browser's own, so that the server sends a visitor's page prerendered in it (without the cookie the
 * server goes by Accept-Language, the browser's list: the same answer, so no cookie is needed or kept then).
 */
export function rememberLanguage(language: string): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  const chosen = supportedLanguage(language);
  if (!chosen || typeof document === 'undefined') return;
  // document.cookie, not the Cookie Store API: that one is asynchronous and not in every browser the shell supports
  if (chosen !== browserLanguage()) {
    // biome-ignore lint/suspicious/noDocumentCookie: see above
    document.cookie = `${LANGUAGE_COOKIE}=${chosen}; path=/; max-age=31536000; samesite=lax`;
  } else if (document.cookie.split('; ').some((c) => c.startsWith(`${LANGUAGE_COOKIE}=`))) {
    // biome-ignore lint/suspicious/noDocumentCookie: see above
    document.cookie = `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`;
  }
}

/** Starts loading the catalogue detectLanguage() names (nothing for Japanese, which is bundled). */
export function preloadCatalogue(): Language {
  const language = detectLanguage();
  if (language !== 'ja') catalogueLoaders[language]().catch(() => {}); // initI18n loads it again and reports
  return language;
}

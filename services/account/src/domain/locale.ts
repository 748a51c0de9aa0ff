import { constants } from '@pagecast/contracts';

export type Locale = (typeof constants.languages)[number];
const supported: readonly string[] = constants.languages;

function primary(tag: string): Locale | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return supported.includes(lang) ? (lang as Locale) : undefined;
}

/**
 * The first supported language of the browser's list, given in order of preference: express's
 * `req.acceptsLanguages()` reads the Accept-Language header (by quality, then order; `*` names no language).
 */
export function localeFromAccepted(accepted: readonly string[] | undefined): Locale | undefined {
  for (const tag of accepted ?? []) {
    const locale = primary(tag);
    if (locale) return locale;
  }
  return undefined;
}

/** A supported language from a tag ('fr', 'fr-CA', 'EN'), if it names one. */
export function supportedLocale(tag: unknown): Locale | undefined {
  return typeof tag === 'string' ? primary(tag) : undefined;
}

/**
 * The language of a mail (mails follow the member, not the browser). An account's own language comes
 * first: set at registration, changed in the settings. A new account takes the language of the page that registers
 * (`page`), else the browser's. An account stored without one (before languages were stored) takes the browser's
 * Accept-Language of the request that triggers the mail: the member asks from that browser now, which tells more
 * than a default would. Japanese, the product's language, when none names a supported one.
 */
export function chooseLocale(sources: {
  account?: string | null;
  page?: string | null;
  browser?: readonly string[];
}): Locale {
  return (
    supportedLocale(sources.account) ??
    supportedLocale(sources.page) ??
    localeFromAccepted(sources.browser) ??
    (constants.fallbackLanguage as Locale)
  );
}

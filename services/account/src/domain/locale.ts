import { constants } from '@pagecast/contracts';

export type Locale = (typeof constants.languages)[number];
const supported: readonly string[] = constants.languages;

function primary(tag: string): Locale | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return supported.includes(lang) ? (lang as Locale) : undefined;
}

/** The first supported language of an Accept-Language header, by quality then order. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranked) {
    const locale = primary(r.tag);
    if (locale) return locale;
  }
  return undefined;
}

/** The member's language: an explicit choice, else the browser's, else a stored one, else Japanese. */
export function pickLocale(explicit: unknown, acceptLanguage: string | undefined, stored?: string | null): Locale {
  if (typeof explicit === 'string') {
    const locale = primary(explicit);
    if (locale) return locale;
  }
  return (
    localeFromAcceptLanguage(acceptLanguage) ??
    (stored ? primary(stored) : undefined) ??
    (constants.fallbackLanguage as Locale)
  );
}

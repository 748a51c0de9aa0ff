import type { Locale } from './locale';

export interface PersonName {
  firstName: string | null | undefined;
  lastName: string | null | undefined;
}

/**
 * A member's full name in the language's order: family name first in Japanese (山田 太郎), given name first in
 * English, French and Italian (Taro Yamada). A missing part is left out; null when both are.
 */
export function fullName(locale: Locale, name: PersonName): string | null {
  const first = name.firstName?.trim() ?? '';
  const last = name.lastName?.trim() ?? '';
  const parts = locale === 'ja' ? [last, first] : [first, last];
  return parts.filter(Boolean).join(' ') || null;
}

/**
 * The opening line of a mail, with the language's honorific: 「山田 太郎 様」, "Hello Taro Yamada,", "Bonjour Taro
 * Yamada,", "Gentile Taro Yamada,". A member without a name is greeted by their address.
 */
export function salutation(locale: Locale, name: PersonName & { email: string }): string {
  const who = fullName(locale, name) ?? name.email;
  switch (locale) {
    case 'ja':
      return `${who} 様`;
    case 'en':
      return `Hello ${who},`;
    case 'fr':
      return `Bonjour ${who},`;
    case 'it':
      return `Gentile ${who},`;
  }
}

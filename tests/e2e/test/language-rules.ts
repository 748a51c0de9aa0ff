// The reader's language on a page (used by the walk of every screen, every-screen.test.ts): in English, French and
// Italian a page must show no Japanese character (kana, kanji) and in Japanese no English word outside an allowed
// list. Member content (titles, tags, names, e-mail addresses; the walk's are Latin) and proper nouns are not the
// page's words: they are taken out first.
import type { Page } from 'playwright-core';
import { mailedLink, uniqueEmail } from './account-flows';
import { baseUrl } from './browser';
import type { Api } from './player-helpers';
import type { Language } from './screens';

/** Kana and kanji (the Japanese scripts; the full-width forms of Latin letters and digits are not counted). */
export const japanese = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー々〆〇]+/gu;
/** Proper nouns every language shows as they are: the language switcher names each language in itself. */
export const properNouns = ['日本語'];
/**
 * English a Japanese page may show: brand and product names, file formats, units, key names and the names of the other
 * languages (the switcher). The spec's English texts (the 404 page, the player's 'Page N of M', the playlist editor's
 * '保存 (N files)') are the en catalogue's: a Japanese page says them in Japanese.
 */
export const allowedInJapanese = new Set(
  [
    'Pagecast',
    'PDF',
    'PowerPoint',
    'Word',
    'pptx',
    'docx',
    'English',
    'Français',
    'Italiano',
    'pt',
    'KB',
    'MB',
    'QR',
    'URL',
    'CSV',
    'ID',
    'ESC',
    'UTC',
    'GMT',
  ].map((w) => w.toLowerCase()),
);

/** Every listing's words (titles, tags, author and copyright) and the member's own content: what members typed, not the page's words. */
export async function collectMemberContent(member: Api, titles: string[]): Promise<string[]> {
  const words = new Set<string>([
    member.member.firstName,
    member.member.lastName,
    member.member.email,
    // the avatar's initials
    `${member.member.firstName[0]}${member.member.lastName[0]}`,
    `${member.member.lastName[0]}${member.member.firstName[0]}`,
    ...titles,
  ]);
  for (let page = 1; page <= 500; page += 1) {
    const res = await member.json<{
      files: Array<{
        title: string;
        tags: string[];
        copyright?: { authorName: string; companyName: string | null; copyrightText: string | null } | null;
      }>;
      pagination: { hasMore: boolean };
    }>('GET', `/api/marketplace?page=${page}`);
    for (const f of res.files) {
      words.add(f.title);
      for (const tag of f.tags) words.add(tag);
      // the seller's stated author, company and notice, shown to buyers as they typed them
      for (const typed of [f.copyright?.authorName, f.copyright?.companyName, f.copyright?.copyrightText])
        if (typed) words.add(typed);
    }
    if (!res.pagination.hasMore) break;
  }
  const playlists = await member.json<Array<{ name: string }>>('GET', '/api/playlists');
  for (const p of playlists) words.add(p.name);
  return [...words].filter((w) => w.trim()).sort((a, b) => b.length - a.length);
}

/** Elements that show generated data, not words: a display's pairing code, the audit log's ids and addresses. */
const generatedData = ['[data-testid="pairing-code"]', '[data-generated]'];

/**
 * The text a person reads on the page (visible text, and the labels and alternatives a screen reader says), less
 * what the generated-data elements show.
 */
export async function readableText(page: Page): Promise<string> {
  const { text, generated } = await page.evaluate((selectors) => {
    const generated = selectors.flatMap((s) =>
      [...document.querySelectorAll<HTMLElement>(s)].map((el) => el.innerText.trim()).filter(Boolean),
    );
    const parts = [document.body.innerText, document.title];
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder], img[alt]')) {
      if (!el.checkVisibility?.()) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(attr);
        if (value) parts.push(value);
      }
    }
    return { text: parts.join('\n'), generated };
  }, generatedData);
  return generated.reduce((rest, data) => rest.split(data).join(' '), text);
}

/** The page's own words: member content, addresses, e-mail addresses and proper nouns taken out. */
function pageWords(text: string, memberContent: string[]): string {
  let rest = text;
  for (const content of memberContent) rest = rest.split(content).join(' ');
  rest = rest
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    // time zones: a picker's option "(UTC+03:00) Africa/Dar es Salaam", and an IANA name anywhere: place names
    .replace(/\(UTC[+\-−]\d{2}:\d{2}\)[^\n]*/g, ' ')
    .replace(
      /\b(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[\w/+-]+(?:[ _/](?:[A-Z][\w-]*|of|es|de|la|del))*/g,
      ' ',
    );
  for (const noun of properNouns) rest = rest.split(noun).join(' ');
  return rest;
}

/** The lines of a page's words that leak another language: Japanese in en/fr/it, English words in ja. */
export function leaks(lang: Language, text: string, memberContent: string[]): string[] {
  const out: string[] = [];
  for (const line of pageWords(text, memberContent).split('\n')) {
    if (lang === 'ja') {
      const english = [...line.matchAll(/\p{Script=Latin}{2,}/gu)]
        .map((m) => m[0])
        .filter((w) => !allowedInJapanese.has(w.toLowerCase()));
      if (english.length) out.push(`${english.join(', ')} in "${line.trim().slice(0, 120)}"`);
    } else if (line.match(japanese)) {
      out.push(`${(line.match(japanese) ?? []).join(', ')} in "${line.trim().slice(0, 120)}"`);
    }
  }
  return out;
}

/**
 * A new account's verification link (/verify-email?token=...), registered from a page in `lang`: the page it opens
 * verifies by itself and says so (the answer of the call once carried a Japanese sentence the page showed).
 */
export async function verificationLink(lang: Language): Promise<string> {
  const email = uniqueEmail(`leak-${lang}`);
  const res = await fetch(`${baseUrl()}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'correct horse battery staple',
      locale: lang,
    }),
  });
  if (!res.ok) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await mailedLink(email, 'verify-email')).link;
}

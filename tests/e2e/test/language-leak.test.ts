// Every word in the reader's language (issue 36), in Chromium against the whole stack: every screen of the shell's
// route table (shell/src/app/routes.tsx, read as the accessibility test reads it; signed out also a reset link with a
// token and a fresh account's verification link, which verifies and toasts), signed out and signed in as a
// member with content of each kind (an upload, a playlist, a bought file, a points history with a card purchase and
// a purchase), in English, French and Italian must show no Japanese character (kana, kanji) and in Japanese no
// English word outside an allowed list. Member content (titles, tags, names, e-mail addresses; this run's are Latin)
// and proper nouns are not the page's words: they are taken out first. A failure prints the page, the language and
// the offending text.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, uniqueEmail } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';
import { type Api, signedInMember, type UploadedFile, uploadPdf } from './player-helpers';
import { concrete, type Language, routeTable, screenReady, setLanguage } from './screens';
import { payTenThousandInDialog, publishListing, type Steps, steps } from './steps';

const table = routeTable();
const RUN = Math.random().toString(36).slice(2, 8);

/** Kana and kanji (the Japanese scripts; the full-width forms of Latin letters and digits are not counted). */
const japanese = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー々〆〇]+/gu;
/** Proper nouns every language shows as they are: the language switcher names each language in itself. */
const properNouns = ['日本語'];
/**
 * English a Japanese page may show: brand and product names, file formats, units, key names and the names of the other
 * languages (the switcher). The spec's English texts (the 404 page, the player's 'Page N of M', the playlist editor's
 * '保存 (N files)') are the en catalogue's: a Japanese page says them in Japanese.
 */
const allowedInJapanese = new Set(
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

let member: Api;
let own: UploadedFile;
let bought: UploadedFile;
/** member content the pages may show (this member's and every listing's), longest first */
let memberContent: string[] = [];
const counts = { screens: 0, languages: new Set<string>() };
const findings: string[] = [];

async function signIn(session: Session) {
  const [name, value] = member.cookie.split('=') as [string, string];
  await session.context.addCookies([{ name, value, url: baseUrl() }]);
}

/** Every listing's words (titles, tags) and this member's own content: what members typed, not the page's words. */
async function collectMemberContent(): Promise<string[]> {
  const words = new Set<string>([
    member.member.firstName,
    member.member.lastName,
    member.member.email,
    // the avatar's initials
    `${member.member.firstName[0]}${member.member.lastName[0]}`,
    `${member.member.lastName[0]}${member.member.firstName[0]}`,
    own.title,
    bought.title,
  ]);
  for (let page = 1; page <= 500; page += 1) {
    const res = await member.json<{
      files: Array<{ title: string; tags: string[] }>;
      pagination: { hasMore: boolean };
    }>('GET', `/api/marketplace?page=${page}`);
    for (const f of res.files) {
      words.add(f.title);
      for (const tag of f.tags) words.add(tag);
    }
    if (!res.pagination.hasMore) break;
  }
  const playlists = await member.json<Array<{ name: string }>>('GET', '/api/playlists');
  for (const p of playlists) words.add(p.name);
  return [...words].filter((w) => w.trim()).sort((a, b) => b.length - a.length);
}

/** Elements that show generated data, not words: a display's pairing code. */
const generatedData = ['[data-testid="pairing-code"]'];

/**
 * The text a person reads on the page (visible text, and the labels and alternatives a screen reader says), less
 * what the generated-data elements show.
 */
async function readableText(page: Page): Promise<string> {
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
function pageWords(text: string): string {
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
function leaks(lang: Language, text: string): string[] {
  const out: string[] = [];
  for (const line of pageWords(text).split('\n')) {
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

/** Opens a route and waits for its screen (a member-only route sends a visitor on to /login, which is read then). */
async function open(page: Page, route: string): Promise<boolean> {
  await page.goto(route);
  try {
    await screenReady(page);
    if (await page.getByTestId('toast').count()) {
      await page.waitForURL('**/login', { timeout: 5_000 }).catch(() => undefined);
      await screenReady(page);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A new account's verification link (/verify-email?token=...), registered from a page in `lang`: the page it opens
 * verifies by itself and says so (the answer of the call once carried a Japanese sentence the page showed).
 */
async function verificationLink(lang: Language): Promise<string> {
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

async function checkScreens(page: Page, who: string, lang: Language, routes: string[], track: Steps) {
  const problems: string[] = [];
  for (const route of routes) {
    track.step(`${who} ${lang} ${route}`);
    if (!(await open(page, route))) {
      problems.push(`${lang} ${route}: the screen did not render`);
      continue;
    }
    if (route.startsWith('/verify-email?token=')) {
      // the verification has answered: the page shows its success (and says what the answer said)
      await page.locator('[data-testid="verify-email-page"][data-state="success"]').waitFor({ timeout: 15_000 });
    }
    // the page is in the language asked for (a leak test on the wrong language proves nothing)
    const htmlLang = await page.evaluate(() => document.documentElement.lang);
    if (htmlLang !== lang) problems.push(`${lang} ${route}: the page is in "${htmlLang}"`);
    for (const leak of leaks(lang, await readableText(page))) problems.push(`${lang} ${who} ${route}: ${leak}`);
    counts.screens += 1;
    counts.languages.add(lang);
  }
  findings.push(...problems);
  return problems;
}

beforeAll(async () => {
  // a seller's listing with a Latin title, bought by the member (10,000 points by card in the browser, then the
  // purchase), and the member's own upload and playlist
  const seller = await signedInMember();
  bought = await publishListing(seller, 'vertical.pdf', `Spring menu ${RUN}`, [`menu${RUN}`]);
  member = await signedInMember();
  own = await uploadPdf(member, 'vertical.pdf', `Quarterly review ${RUN}`, 5);
  const playlist = await member.json<{ id: string }>('POST', '/api/playlists', { name: `Lobby loop ${RUN}` });
  await member.json('POST', `/api/playlists/${playlist.id}/items`, { fileId: own.id, position: 0 });
  const session = await openBrowser({ locale: 'ja-JP' }); // the purchase steps read the Japanese toast
  try {
    await signIn(session);
    await session.page.goto('/points');
    await session.page.getByTestId('points-buy').click();
    await payTenThousandInDialog(session.page);
  } finally {
    await session.close();
  }
  await member.json('POST', `/api/marketplace/purchase/${bought.id}`, { expectedPrice: 3000 });
  memberContent = await collectMemberContent();
}, 240_000);

afterAll(() => {
  process.stdout.write(
    `[language-leak] ${counts.screens} screen loads in ${[...counts.languages].join(', ')}; ` +
      `signed out: ${table.signedOut.join(' ')}; signed in: ${[...table.signedIn, ...table.always].join(' ')}; ` +
      `${findings.length} leaks\n${findings.map((f) => `  ${f}\n`).join('')}`,
  );
});

const readers: Language[] = ['en', 'fr', 'it', 'ja'];

describe('every screen in the reader’s language, signed out', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
  });
  afterAll(async () => session?.close());

  for (const lang of readers) {
    it(`${lang}: no ${lang === 'ja' ? 'English outside the allowed words' : 'Japanese'} on any screen`, async () => {
      const track = steps();
      await setLanguage(session.page, lang);
      const routes = [...table.signedOut, '/reset-password?token=not-a-real-token', await verificationLink(lang)];
      const problems = await track.within(170_000, () => checkScreens(session.page, 'visitor', lang, routes, track));
      expect(problems).toEqual([]);
    }, 180_000);
  }
});

describe('every screen in the reader’s language, signed in with content', () => {
  let session: Session;
  let routes: string[];
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
    await signIn(session);
    routes = [...table.signedIn, ...table.always].map((r) => concrete(r, { fileId: own.id }));
    // File management's second tab: the bought file; the player of the bought file
    routes.splice(routes.indexOf('/files') + 1, 0, '/files?view=purchased', `/signage/${bought.id}`);
  });
  afterAll(async () => session?.close());

  for (const lang of readers) {
    it(`${lang}: no ${lang === 'ja' ? 'English outside the allowed words' : 'Japanese'} on any screen`, async () => {
      const track = steps();
      await setLanguage(session.page, lang);
      const problems = await track.within(230_000, () => checkScreens(session.page, 'member', lang, routes, track));
      expect(problems).toEqual([]);
    }, 240_000);
  }
});

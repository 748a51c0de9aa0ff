// Accessibility and small screens on every screen of the route table (read from shell/src/app/routes.tsx), signed
// out and signed in: axe-core (serious and critical findings fail) in Japanese and French; no sideways scrolling,
// nothing sticking out, no title or card on the window's edge and nothing cut off in a header at 390, 1024 and
// 1440 px in all four languages (screenshots kept in .data/test/screens); every control reachable by Tab and nothing
// clickable that Tab cannot reach; dialogs trap focus and give it back; the player works from the keyboard alone.
// One browser per part, one login, pages reused.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Session } from './browser';
import { type Api, signedInMember, type UploadedFile, uploadPdf } from './player-helpers';
import {
  afterPaint,
  axeLanguages,
  concrete,
  dialogs,
  type Language,
  languages,
  layoutProblems,
  routeTable,
  screenReady,
  screensDir,
  seriousViolations,
  setLanguage,
  tabbableControls,
  widths,
} from './screens';
import { type Steps, steps } from './steps';

const table = routeTable();
let api: Api;
let deck: UploadedFile; // vertical.pdf, 3 pages: the player's route and the files screen's cards
const counts = { screens: 0, axe: 0, layout: 0, keyboard: 0, dialogs: 0 };

beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  api = await signedInMember();
  deck = await uploadPdf(api, 'vertical.pdf', 'Vertical deck', 5);
  // fleet control (issue 37): a group and a saved takeover, so /screens/fleet shows its lists, not only empty states
  await api.json('POST', '/api/screens/groups', { name: 'Lobby' });
  await api.json('POST', '/api/screens/takeover-templates', {
    name: 'Earthquake',
    content: { kind: 'message', title: '地震発生', body: '落ち着いて避難してください。' },
    minutes: 30,
  });
}, 180_000);

afterAll(() => {
  const routes = (list: string[]) => list.join(' ');
  process.stdout.write(
    `[a11y] signed out: ${routes(table.signedOut)}\n[a11y] signed in: ${routes([...table.signedIn, ...table.always])}\n` +
      `[a11y] checks: ${counts.screens} screen loads, ${counts.axe} axe runs, ${counts.layout} layout checks ` +
      `(${widths.join('/')} px), ${counts.keyboard} Tab walks, ${counts.dialogs} dialog checks; screenshots in ${screensDir}\n`,
  );
});

const slug = (route: string) => route.replace(/^\//, '').replace(/[^\w-]+/g, '_') || 'root';

async function signIn(session: Session) {
  const [name, value] = api.cookie.split('=') as [string, string];
  await session.context.addCookies([{ name, value, url: baseUrl() }]);
}

/** Opens a route and waits for its screen; a member-only route sends a visitor on to /login, which is then checked. */
async function open(page: Page, route: string, track?: Steps): Promise<string | null> {
  track?.step(`${route}: open`);
  await page.goto(route);
  try {
    await screenReady(page);
    if (await page.getByTestId('toast').count()) {
      await page.waitForURL('**/login', { timeout: 5_000 }).catch(() => undefined);
      await screenReady(page);
    }
    counts.screens += 1;
    return null;
  } catch {
    return `${route}: the screen did not render (no visible level-1 heading, or a spinner stays)`;
  }
}

/** Walks the page with Tab from the top: every tabbable control must get the focus, and nothing clickable is left out. */
async function keyboardProblems(page: Page, route: string): Promise<string[]> {
  const expected = await tabbableControls(page);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  // Chromium stops on each part of a date or time field (day, month, year), so those take more than one Tab
  const extraStops = await page.evaluate(
    () =>
      [...document.querySelectorAll('input[type="date"], input[type="time"], input[type="datetime-local"]')].filter(
        (el) => el.getClientRects().length > 0,
      ).length * 3,
  );
  const reached = new Set<string>();
  for (let i = 0; i < expected.length + extraStops + 3; i += 1) {
    await page.keyboard.press('Tab');
    const key = await page.evaluate(() => document.activeElement?.getAttribute('data-a11y-key') ?? null);
    if (key) reached.add(key);
  }
  const problems: string[] = [];
  const missed = expected.filter((k) => !reached.has(k));
  if (missed.length)
    problems.push(
      `${route}: Tab does not reach ${await page.evaluate(
        (keys) => keys.map((k) => document.querySelector(`[data-a11y-key="${k}"]`)?.outerHTML.slice(0, 80)).join(', '),
        missed,
      )}`,
    );
  // a pointer cursor on something Tab cannot reach is an action the keyboard cannot do
  const mouseOnly = await page.evaluate(() => {
    const focusable = 'a[href], button, input, select, textarea, label, summary, [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter(
        (el) =>
          getComputedStyle(el).cursor === 'pointer' &&
          el.getClientRects().length > 0 &&
          !el.closest(focusable) &&
          !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer'),
      )
      .map((el) => el.outerHTML.slice(0, 80));
  });
  for (const html of mouseOnly) problems.push(`${route}: clickable but not reachable by Tab: ${html}`);
  counts.keyboard += 1;
  return problems;
}

/** One language over a list of routes: axe (in the axe languages), layout at the three widths, screenshots, Tab. */
async function checkScreens(
  page: Page,
  state: string,
  lang: Language,
  routes: string[],
  track: Steps,
): Promise<string[]> {
  const problems: string[] = [];
  for (const route of routes) {
    await page.setViewportSize({ width: 1024, height: 800 });
    const failed = await open(page, route, track);
    if (failed) {
      problems.push(`${lang} ${failed}`);
      continue;
    }
    if (axeLanguages.includes(lang)) {
      track.step(`${route}: axe`);
      for (const v of await seriousViolations(page))
        problems.push(`${lang} ${route}: axe ${v.impact} ${v.rule} (${v.help}) at ${v.targets.join(' | ')}`);
      counts.axe += 1;
    }
    for (const width of widths) {
      track.step(`${route}: layout at ${width} px`);
      await page.setViewportSize({ width, height: 800 });
      await afterPaint(page);
      for (const p of await layoutProblems(page, { edgeMargin: 8 })) problems.push(`${lang} ${route} @${width}: ${p}`);
      counts.layout += 1;
      track.step(`${route}: screenshot at ${width} px`);
      await page.screenshot({
        path: path.join(screensDir, `${state}-${lang}-${slug(route)}-${width}.png`),
        fullPage: true,
      });
    }
    if (lang === 'ja') {
      track.step(`${route}: Tab walk`);
      problems.push(...(await keyboardProblems(page, route)));
    }
  }
  return problems;
}

describe('every screen, signed out', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
  });
  afterAll(async () => session?.close());

  for (const lang of languages) {
    it(`${lang}: ${axeLanguages.includes(lang) ? 'axe, ' : ''}layout at ${widths.join(', ')} px${lang === 'ja' ? ', Tab' : ''}`, async () => {
      const track = steps();
      await setLanguage(session.page, lang);
      const problems = await track.within(290_000, () =>
        checkScreens(session.page, 'visitor', lang, table.signedOut, track),
      );
      expect(problems).toEqual([]);
    }, 300_000);
  }
});

describe('every screen, signed in', () => {
  let session: Session;
  let routes: string[];
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
    await signIn(session);
    routes = [...table.signedIn, ...table.always].map((r) => concrete(r, { fileId: deck.id }));
    // File management's second tab (issue 36): the member's bought content, here its empty state
    routes.splice(routes.indexOf('/files') + 1, 0, '/files?view=purchased');
  });
  afterAll(async () => session?.close());

  for (const lang of languages) {
    it(`${lang}: ${axeLanguages.includes(lang) ? 'axe, ' : ''}layout at ${widths.join(', ')} px${lang === 'ja' ? ', Tab' : ''}`, async () => {
      const track = steps();
      await setLanguage(session.page, lang);
      const problems = await track.within(290_000, () => checkScreens(session.page, 'member', lang, routes, track));
      expect(problems).toEqual([]);
    }, 300_000);
  }
});

describe('dialogs', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
    await signIn(session);
  });
  afterAll(async () => session?.close());

  for (const lang of axeLanguages) {
    it(`${lang}: opened from the keyboard, axe, layout at 390 and 1024 px, focus trapped and given back`, async () => {
      const { page } = session;
      await setLanguage(page, lang);
      const problems: string[] = [];
      for (const d of dialogs) {
        await page.setViewportSize({ width: 1024, height: 800 });
        const failed = await open(page, d.route);
        if (failed) {
          problems.push(`${lang} ${failed}`);
          continue;
        }
        const opener = page.getByTestId(d.opener).first();
        await opener.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByTestId(d.dialog);
        await dialog.waitFor();
        const where = `${lang} ${d.name} dialog`;
        const focusInside = () =>
          page.evaluate((id) => {
            const panel = document.querySelector(`[data-testid="${id}"]`)?.closest('[role="dialog"]');
            return Boolean(panel && document.activeElement && panel.contains(document.activeElement));
          }, d.dialog);
        if (!(await focusInside())) problems.push(`${where}: focus does not move into the dialog when it opens`);
        for (const v of await seriousViolations(page))
          problems.push(`${where}: axe ${v.impact} ${v.rule} (${v.help}) at ${v.targets.join(' | ')}`);
        for (const width of [390, 1024]) {
          await page.setViewportSize({ width, height: 800 });
          for (const p of await layoutProblems(page, { edgeMargin: 8 })) problems.push(`${where} @${width}: ${p}`);
          await page.screenshot({ path: path.join(screensDir, `dialog-${lang}-${slug(d.name)}-${width}.png`) });
        }
        // Tab and Shift+Tab twice round the dialog's controls: the focus never leaves it
        const controls = await dialog.evaluate(
          (el) =>
            (el.closest('[role="dialog"]') ?? el).querySelectorAll(
              'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])',
            ).length,
        );
        for (const key of ['Tab', 'Shift+Tab']) {
          for (let i = 0; i < controls * 2 + 2; i += 1) {
            await page.keyboard.press(key);
            if (!(await focusInside())) {
              problems.push(`${where}: ${key} #${i + 1} takes the focus out of the open dialog`);
              break;
            }
          }
        }
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        const back = await opener.evaluate((el) => el === document.activeElement);
        if (!back) problems.push(`${where}: the focus does not return to the control that opened it`);
        counts.dialogs += 1;
      }
      expect(problems).toEqual([]);
    }, 180_000);
  }
});

describe('the player without a mouse', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowser({ locale: 'ja-JP' });
    await session.page.goto('/');
    await signIn(session);
  });
  afterAll(async () => session?.close());

  it('keys move and play; Tab reaches play, next and fullscreen, and Enter and Space press them once', async () => {
    const { page } = session;
    await page.goto(`/signage/${deck.id}`);
    await page.getByTestId('player-header').waitFor();
    const counter = page.getByTestId('player-counter');
    const playing = () =>
      page.evaluate(() => document.querySelector('[data-player="signage"]')?.getAttribute('data-playing') === 'true');
    expect(await counter.textContent()).toBe('1 / 3');
    // the arrow keys work with nothing focused
    await page.keyboard.press('ArrowRight');
    await counter.filter({ hasText: '2 / 3' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await counter.filter({ hasText: '1 / 3' }).waitFor();

    // Tab reaches the controls; returns the number of presses
    const tabTo = async (testId: string) => {
      for (let i = 1; i <= 20; i += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return i;
      }
      throw new Error(`Tab never reaches ${testId}`);
    };
    await tabTo('player-next');
    await page.keyboard.press('Enter');
    await counter.filter({ hasText: '2 / 3' }).waitFor();
    // Space on a focused control acts once (the player's own Space key must not toggle a second time)
    await page.keyboard.press('Space');
    await counter.filter({ hasText: '3 / 3' }).waitFor();
    await page.waitForTimeout(300);
    expect(await counter.textContent()).toBe('3 / 3');
    expect(await playing()).toBe(false);

    await tabTo('player-play');
    await page.keyboard.press('Enter');
    await expect.poll(playing).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(playing).toBe(false);
    await page.getByTestId('player-header').waitFor();
    await tabTo('player-play');
    await page.keyboard.press('Space');
    await expect.poll(playing).toBe(true);
    await page.waitForTimeout(300);
    expect(await playing()).toBe(true); // pressed once, toggled once
    await page.keyboard.press('Space');
    await expect.poll(playing).toBe(false);

    // the fullscreen button from the keyboard, and Escape leaves it
    await page.getByTestId('player-header').waitFor();
    await tabTo('player-fullscreen');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.fullscreenElement !== null);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.fullscreenElement === null);
    counts.keyboard += 1;
  }, 60_000);
});

// Every screen of the route table (read from shell/src/app/routes.tsx), signed out and signed in, walked once in each
// language for both what a person sees and what they read:
// - accessibility and small screens: axe-core (serious and critical findings fail) in Japanese and French; no sideways
//   scrolling, nothing sticking out, no title or card on the window's edge and nothing cut off in a header at 390,
//   1024 and 1440 px in all four languages (screenshots kept in .data/test/screens); every control reachable by Tab
//   and nothing clickable that Tab cannot reach;
// - every word in the reader's language (language-rules.ts): in English, French and Italian no Japanese character,
//   in Japanese no English word outside the allowed list, member content (this run's is Latin) taken out first; the
//   page is in the language asked for. Signed out also a reset link with a token and a fresh account's verification
//   link (which verifies and says so); signed in as a member with content of each kind (an upload, a playlist, a
//   group, a saved takeover, a bought file, a points history with a card purchase and a purchase, an editor's
//   proposal waiting for the member's approval).
// Then dialogs trap focus and give it back, and the player works from the keyboard alone. One browser per part, one
// login, pages reused. The walk is split by language over two files (every-screen-ja-fr.test.ts with the dialogs and
// the player, every-screen-en-it.test.ts), so the browser tests' shards can take one each.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Session } from './browser';
import { mailedInvitation, uniqueEmail } from './account-flows';
import { collectMemberContent, leaks, readableText, verificationLink } from './language-rules';
import { type Api, signedInMember, type UploadedFile, uploadPdf } from './player-helpers';
import {
  afterPaint,
  axeLanguages,
  concrete,
  dialogs,
  type Language,
  layoutProblems,
  routeTable,
  screenReady,
  screensDir,
  seriousViolations,
  setLanguage,
  tabbableControls,
  widths,
} from './screens';
import { payTenThousandInDialog, publishListing, type Steps, steps } from './steps';

/**
 * Registers the walk of every screen in `langs` (signed out and signed in, one member with content of each kind made
 * first), and with `extras` the dialogs (in the axe languages) and the player without a mouse.
 */
export function everyScreen(langs: Language[], { extras }: { extras: boolean }) {
  const table = routeTable();
  const RUN = Math.random().toString(36).slice(2, 8);
  let api: Api;
  let deck: UploadedFile; // vertical.pdf, 3 pages: the player's route and the files screen's cards
  let bought: UploadedFile; // another seller's listing, bought by the member
  let invitationToken: string; // a pending invitation to the member's workspace (the invitation page)
  let proposalId: string; // an editor's change waiting for the member's approval (the proposal page)
  /** member content the pages may show (this member's and every listing's), longest first */
  let memberContent: string[] = [];
  const counts = { screens: 0, axe: 0, layout: 0, keyboard: 0, dialogs: 0, languageChecks: 0 };
  const leakFindings: string[] = [];

  beforeAll(async () => {
    mkdirSync(screensDir, { recursive: true });
    // a seller's listing with a Latin title, bought by the member (10,000 points by card in the browser, then the
    // purchase), and the member's own upload, playlist, group and saved takeover (fleet control then shows its lists,
    // not only empty states); every name Latin, so that a Japanese character on an English page is the page's own
    const seller = await signedInMember();
    bought = await publishListing(seller, 'vertical.pdf', `Spring menu ${RUN}`, [`menu${RUN}`]);
    api = await signedInMember();
    deck = await uploadPdf(api, 'vertical.pdf', `Vertical deck ${RUN}`, 5);
    const playlist = await api.json<{ id: string }>('POST', '/api/playlists', { name: `Lobby loop ${RUN}` });
    await api.json('POST', `/api/playlists/${playlist.id}/items`, { fileId: deck.id, position: 0 });
    const named = [`Lobby ${RUN}`, `Earthquake ${RUN}`, `Evacuate ${RUN}`, `Stay calm ${RUN}`];
    const group = await api.json<{ id: string }>('POST', '/api/screens/groups', { name: named[0] });
    await api.json('POST', '/api/screens/takeover-templates', {
      name: named[1],
      content: { kind: 'message', title: named[2], body: named[3] },
      minutes: 30,
    });
    const session = await openBrowser({ locale: 'ja-JP' }); // the purchase steps read the Japanese toast
    try {
      await signIn(session);
      await session.page.goto('/points');
      await session.page.getByTestId('points-buy').click();
      await payTenThousandInDialog(session.page);
    } finally {
      await session.close();
    }
    await api.json('POST', `/api/marketplace/purchase/${bought.id}`, { expectedPrice: 3000 });
    // the member's workspace is named after them (a Latin name); the invitee's address has no account
    const own = await api.json<{ workspaces: Array<{ id: string; name: string }> }>('GET', '/api/workspaces');
    const invitee = uniqueEmail('invitee');
    await api.json('POST', `/api/workspaces/${own.workspaces[0]?.id}/invitations`, { email: invitee, role: 'editor' });
    invitationToken = (await mailedInvitation(invitee)).split('/').at(-1) ?? '';
    proposalId = await waitingProposal(api, own.workspaces[0]?.id ?? '', group.id, playlist.id);
    memberContent = await collectMemberContent(api, [
      deck.title,
      bought.title,
      ...named,
      invitee,
      own.workspaces[0]?.name ?? '',
    ]);
  }, 300_000);

  afterAll(() => {
    const routes = (list: string[]) => list.join(' ');
    process.stdout.write(
      `[a11y] signed out: ${routes(table.signedOut)}\n[every-screen] signed in: ${routes([...table.signedIn, ...table.always])}\n` +
        `[a11y] checks: ${counts.screens} screen loads, ${counts.axe} axe runs, ${counts.layout} layout checks ` +
        `(${widths.join('/')} px), ${counts.keyboard} Tab walks, ${counts.dialogs} dialog checks, ` +
        `${counts.languageChecks} language checks (${leakFindings.length} leaks); screenshots in ${screensDir}\n` +
        leakFindings.map((f) => `  ${f}\n`).join(''),
    );
  });

  /**
   * A proposal waiting in the member's workspace: the member asks for approval, an editor (invited, accepted) gives
   * the group a playlist. The setting reaches the screens service through a key-value bucket, so the editor's change
   * is tried until it waits (a change made meanwhile is undone by the next try, which gives the other content).
   */
  async function waitingProposal(owner: Api, workspaceId: string, groupId: string, playlistId: string) {
    const editor = await signedInMember();
    await owner.json('POST', `/api/workspaces/${workspaceId}/invitations`, {
      email: editor.member.email,
      role: 'editor',
    });
    const token = (await mailedInvitation(editor.member.email)).split('/').at(-1) ?? '';
    await editor.json('POST', `/api/invitations/${token}/accept`, {});
    await owner.json('PUT', `/api/workspaces/${workspaceId}/settings`, { approvalRequired: true });
    for (let i = 0; i < 40; i += 1) {
      const assignment = i % 2 === 0 ? { kind: 'playlist', playlistId } : { kind: 'none' };
      const res = await fetch(`${baseUrl()}/api/screens/groups/${groupId}`, {
        method: 'PUT',
        headers: { cookie: editor.cookie, 'content-type': 'application/json', 'x-pagecast-workspace': workspaceId },
        body: JSON.stringify({ assignment }),
      });
      const text = await res.text();
      if (res.status === 202) return (JSON.parse(text) as { proposal: { id: string } }).proposal.id;
      if (!res.ok) throw new Error(`the editor's group change: ${res.status} ${text}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the editor’s change never waited for approval');
  }

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
          (keys) =>
            keys.map((k) => document.querySelector(`[data-a11y-key="${k}"]`)?.outerHTML.slice(0, 80)).join(', '),
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
      if (route.startsWith('/verify-email?token=')) {
        // the verification has answered: the page shows its success (and says what the answer said)
        await page.locator('[data-testid="verify-email-page"][data-state="success"]').waitFor({ timeout: 15_000 });
      }
      track.step(`${route}: words in ${lang}`);
      // the page is in the language asked for (a leak test on the wrong language proves nothing); a page served in
      // the language of the last visit switches to the stored choice once its scripts run, so it is given 5 s
      await page
        .waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: 5_000 })
        .catch(() => undefined);
      const htmlLang = await page.evaluate(() => document.documentElement.lang);
      if (htmlLang !== lang) problems.push(`${lang} ${route}: the page is in "${htmlLang}"`);
      for (const leak of leaks(lang, await readableText(page), memberContent)) {
        problems.push(`${lang} ${state} ${route}: ${leak}`);
        leakFindings.push(`${lang} ${state} ${route}: ${leak}`);
      }
      counts.languageChecks += 1;
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
        for (const p of await layoutProblems(page, { edgeMargin: 8 }))
          problems.push(`${lang} ${route} @${width}: ${p}`);
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

    for (const lang of langs) {
      it(`${lang}: ${axeLanguages.includes(lang) ? 'axe, ' : ''}layout at ${widths.join(', ')} px${lang === 'ja' ? ', Tab' : ''}, every word in ${lang}`, async () => {
        const track = steps();
        await setLanguage(session.page, lang);
        const routes = [
          ...table.signedOut.map((r) => concrete(r, { token: invitationToken, proposalId })),
          '/reset-password?token=not-a-real-token',
          await verificationLink(lang),
        ];
        const problems = await track.within(290_000, () => checkScreens(session.page, 'visitor', lang, routes, track));
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
      routes = [...table.signedIn, ...table.always].map((r) =>
        concrete(r, { fileId: deck.id, token: invitationToken, proposalId }),
      );
      // File management's second tab: the member's bought content; the player of the bought file
      routes.splice(routes.indexOf('/files') + 1, 0, '/files?view=purchased', `/signage/${bought.id}`);
    });
    afterAll(async () => session?.close());

    for (const lang of langs) {
      it(`${lang}: ${axeLanguages.includes(lang) ? 'axe, ' : ''}layout at ${widths.join(', ')} px${lang === 'ja' ? ', Tab' : ''}, every word in ${lang}`, async () => {
        const track = steps();
        await setLanguage(session.page, lang);
        const problems = await track.within(290_000, () => checkScreens(session.page, 'member', lang, routes, track));
        expect(problems).toEqual([]);
      }, 300_000);
    }
  });

  if (extras)
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

  if (extras)
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
          page.evaluate(
            () => document.querySelector('[data-player="signage"]')?.getAttribute('data-playing') === 'true',
          );
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
            if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId))
              return i;
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
}

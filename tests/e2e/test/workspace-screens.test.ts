// The team screens in a real stack: an owner invites a member (the mail's link), the member accepts and then
// belongs to two workspaces; the header's switcher names the chosen workspace in the remotes' calls; the members
// page of the owner and of the member, and the invitation page signed in and out, in Japanese, English and French:
// axe (ja, fr), layout at 390 and 1024 px, screenshots in .data/test/screens.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedInvitation, uniqueEmail } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';
import { type Api, signedInMember } from './player-helpers';
import {
  afterPaint,
  axeLanguages,
  type Language,
  layoutProblems,
  screenReady,
  screensDir,
  seriousViolations,
  setLanguage,
} from './screens';

let owner: Api;
let member: Api;
let ownerWorkspace: string;
/** a pending invitation of the owner's, to an address without an account */
let pendingLink: string;
const sessions: Session[] = [];

async function browserOf(api: Api | null): Promise<Session> {
  const session = await openBrowser({ locale: 'ja-JP' });
  sessions.push(session);
  await session.page.goto('/');
  if (api) {
    const [name, value] = api.cookie.split('=') as [string, string];
    await session.context.addCookies([{ name, value, url: baseUrl() }]);
  }
  return session;
}

beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  owner = await signedInMember();
  member = await signedInMember();
  const own = await owner.json<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  ownerWorkspace = own.workspaces[0]?.id ?? '';
  await owner.json('POST', `/api/workspaces/${ownerWorkspace}/invitations`, {
    email: member.member.email,
    role: 'viewer',
    language: 'ja',
  });
  const link = await mailedInvitation(member.member.email);
  await member.json('POST', `/api/invitations/${link.split('/').at(-1)}/accept`, {});
  const stranger = uniqueEmail('invitee');
  await owner.json('POST', `/api/workspaces/${ownerWorkspace}/invitations`, {
    email: stranger,
    role: 'editor',
    language: 'fr',
  });
  pendingLink = await mailedInvitation(stranger);
}, 120_000);

afterAll(async () => {
  for (const s of sessions) await s.close();
});

/** axe in the axe languages, layout at 390 and 1024 px, a screenshot at each. */
async function check(page: Page, lang: Language, name: string): Promise<string[]> {
  await screenReady(page);
  const problems: string[] = [];
  const htmlLang = await page.evaluate(() => document.documentElement.lang);
  if (htmlLang !== lang) problems.push(`${name}: the page is in "${htmlLang}"`);
  if (axeLanguages.includes(lang)) {
    for (const v of await seriousViolations(page))
      problems.push(`${lang} ${name}: axe ${v.impact} ${v.rule} (${v.help}) at ${v.targets.join(' | ')}`);
  }
  for (const width of [390, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await afterPaint(page);
    for (const p of await layoutProblems(page, { edgeMargin: 8 })) problems.push(`${lang} ${name} @${width}: ${p}`);
    await page.screenshot({ path: path.join(screensDir, `workspace-${lang}-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}

describe('team screens', () => {
  it('the switcher names the chosen workspace in the remotes’ calls and the address, and keeps it on reload', async () => {
    const { page } = await browserOf(member);
    const named: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/files')) named.push(r.headers()['x-pagecast-workspace'] ?? '');
    });
    await page.goto('/files');
    await screenReady(page);
    const switcher = page.getByTestId('workspace-switcher');
    await switcher.waitFor();
    expect(await switcher.locator('option').count()).toBe(2);
    expect(named.every((n) => n === '')).toBe(true);
    named.length = 0;
    await switcher.selectOption(ownerWorkspace);
    await page.waitForURL(`**/files?w=${ownerWorkspace}`);
    await expect.poll(() => named.filter((n) => n === ownerWorkspace).length).toBeGreaterThan(0);
    expect(named.filter((n) => n !== ownerWorkspace)).toEqual([]);
    // a viewer's files page in the owner's workspace: reload keeps it
    named.length = 0;
    await page.reload();
    await screenReady(page);
    expect(await page.getByTestId('workspace-switcher').inputValue()).toBe(ownerWorkspace);
    await expect.poll(() => named.filter((n) => n === ownerWorkspace).length).toBeGreaterThan(0);
    // on a phone the choice heads the folded menu
    await page.setViewportSize({ width: 390, height: 800 });
    await afterPaint(page);
    expect(await page.getByTestId('workspace-switcher').isVisible()).toBe(false);
    await page.getByTestId('nav-toggle').click();
    const inMenu = page.getByTestId('workspace-switcher-menu');
    await inMenu.waitFor();
    expect(await inMenu.inputValue()).toBe(ownerWorkspace);
    expect(await layoutProblems(page, { edgeMargin: 8 })).toEqual([]);
    await page.screenshot({ path: path.join(screensDir, 'workspace-ja-switcher-menu-390.png') });
  }, 120_000);

  for (const lang of ['ja', 'en', 'fr'] as Language[]) {
    it(`${lang}: members page (owner, member), invitation page (signed in, signed out)`, async () => {
      const problems: string[] = [];
      const ownerPage = (await browserOf(owner)).page;
      await setLanguage(ownerPage, lang);
      await ownerPage.goto('/workspace/members');
      await ownerPage.getByTestId('invite-card').waitFor();
      problems.push(...(await check(ownerPage, lang, 'members-owner')));

      const memberPage = (await browserOf(member)).page;
      await setLanguage(memberPage, lang);
      await memberPage.goto(`/workspace/members?w=${ownerWorkspace}`);
      await memberPage.getByTestId('leave-card').waitFor();
      expect(await memberPage.getByTestId('invite-card').count()).toBe(0);
      problems.push(...(await check(memberPage, lang, 'members-viewer')));
      await memberPage.goto(pendingLink);
      await memberPage.getByTestId('invitation-accept').waitFor();
      problems.push(...(await check(memberPage, lang, 'invitation-signed-in')));

      const visitor = (await browserOf(null)).page;
      await setLanguage(visitor, lang);
      await visitor.goto(pendingLink);
      await visitor.getByTestId('invitation-login').waitFor();
      problems.push(...(await check(visitor, lang, 'invitation-signed-out')));
      expect(problems).toEqual([]);
    }, 180_000);
  }
});

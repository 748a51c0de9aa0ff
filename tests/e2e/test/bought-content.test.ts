// Bought content at hand, in Chromium against the whole stack: A publishes a document; B, with only the
// registration bonus, is one click from the point purchase dialog on the marketplace card (ポイント不足), pays with
// the card provider's test card, buys the document, plays it from the marketplace card, finds it in File management's
// "Purchased" tab with its licence end and days left, plays it from there and reaches the playlists with it; the
// dashboard counts it. axe finds nothing serious on those screens; screenshots at 1440 px in en, fr and ja.
// Nothing is mocked but the card provider (localstripe).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toastText } from './account-flows';
import type { Session } from './browser';
import { type Api, signedInMember, type UploadedFile } from './player-helpers';
import { type Language, screenReady, screensDir, seriousViolations, setLanguage } from './screens';
import { payTenThousandInDialog, publishListing, signedInBuyer } from './steps';

// the shared test database keeps earlier runs' listings: this run's tag tells its own apart
const RUN = Math.random().toString(36).slice(2, 8);
const TITLE = `買ったコンテンツ ${RUN}`;
const TAG = `購入${RUN}`;
const DAY_MS = 86_400_000;

let seller: Api;
let file: UploadedFile;
let session: Session;
let page: Page;

/** A read with B's session cookie (what B's own page would read). */
async function buyerJson<T>(url: string): Promise<T> {
  const cookie = (await session.context.cookies()).find((c) => c.name === 'pc_session');
  const res = await page.request.fetch(url, { headers: cookie ? { cookie: `pc_session=${cookie.value}` } : {} });
  if (!res.ok()) throw new Error(`GET ${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The marketplace filtered to this run's listing; its card. */
async function marketCard() {
  await page.goto('/marketplace');
  await page.getByTestId('marketplace-page').waitFor();
  await page.getByTestId('market-tag-input').fill(TAG);
  await page.getByTestId('market-tag-add').click();
  const card = page.locator(`[data-testid="market-card"][data-file-id="${file.id}"]`);
  await card.waitFor({ timeout: 15_000 });
  return card;
}

/**
 * Clicks a link that opens the player in a new tab; whether the signage page there plays this file (loaded, which
 * only a member allowed to play it gets, and playing at once: the header with the title hides while it plays).
 */
async function playsInNewTab(click: () => Promise<void>): Promise<boolean> {
  const [player] = await Promise.all([session.context.waitForEvent('page'), click()]);
  try {
    const signage = player.locator(`[data-player="signage"][data-file-id="${file.id}"]`);
    await signage.waitFor({ state: 'attached', timeout: 20_000 });
    expect(new URL(player.url()).pathname).toBe(`/signage/${file.id}`);
    expect(await player.getByTestId('player-error').count()).toBe(0);
    await expect.poll(() => signage.getAttribute('data-playing'), { timeout: 15_000 }).toBe('true');
    return true;
  } finally {
    await player.close();
  }
}

beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  seller = await signedInMember();
  file = await publishListing(seller, 'vertical.pdf', TITLE, [TAG]);
  ({ session, page } = await signedInBuyer());
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('bought content is first-class', () => {
  it('with too few points, the marketplace card opens the point purchase dialog in one click', async () => {
    const card = await marketCard();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('insufficient');
    expect(await card.getByTestId('market-buy').textContent()).toBe('ポイント不足');
    expect(await card.getByTestId('market-buy').isDisabled()).toBe(true);
    await card.getByTestId('market-buy-points').click();
    await page.getByTestId('purchase-dialog').waitFor({ timeout: 15_000 });
    // the points page, its purchase dialog open, and the address no longer asks for it (reload does not reopen)
    expect(new URL(page.url()).pathname).toBe('/points');
    expect(new URL(page.url()).search).toBe('');
    await payTenThousandInDialog(page);
    await expect.poll(() => page.getByTestId('points-balance').textContent(), { timeout: 15_000 }).toBe('10,300 pt');
  }, 90_000);

  it('buys it; the card then offers Play, which plays it', async () => {
    const card = await marketCard();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('available');
    await card.getByTestId('market-buy').click();
    await page.getByTestId('market-confirm-buy').click();
    await toastText(page, 'コンテンツを購入しました');
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('licensed');
    expect(await card.getByTestId('market-buy').count()).toBe(0);
    expect(await card.getByTestId('market-play').textContent()).toBe('再生');
    expect(await playsInNewTab(() => card.getByTestId('market-play').click())).toBe(true);
  }, 90_000);

  it('finds it in File management with its licence end and days left, plays it, and reaches the playlists', async () => {
    const accessible =
      await buyerJson<Array<{ id: string; access: string; licenceExpiresAt: string | null }>>('/api/files/accessible');
    const licence = accessible.find((f) => f.id === file.id);
    expect(licence?.access).toBe('purchased');
    const expiresAt = licence?.licenceExpiresAt ?? '';
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now() + 29 * DAY_MS);

    await page.goto('/files');
    await page.getByTestId('files-tab-purchased').click();
    await page.waitForURL('**/files?view=purchased');
    const card = page.locator(`[data-testid="purchased-card"][data-file-id="${file.id}"]`);
    await card.waitFor({ timeout: 15_000 });
    // not among B's own uploads
    expect(await page.getByTestId('file-card').count()).toBe(0);
    expect(await page.getByTestId('files-tab-purchased-count').textContent()).toBe('1');
    const ends = card.getByTestId('purchased-ends');
    expect(await ends.getAttribute('data-expires-at')).toBe(expiresAt);
    expect(await ends.textContent()).toBe(
      await page.evaluate((iso) => new Date(iso).toLocaleDateString('ja'), expiresAt),
    );
    const daysLeft = Math.ceil((Date.parse(expiresAt) - Date.now()) / DAY_MS);
    expect(await card.getByTestId('purchased-days-left').textContent()).toBe(`残り ${daysLeft} 日`);
    expect(await card.getAttribute('data-ending-soon')).toBe('false');

    expect(await playsInNewTab(() => card.getByTestId('purchased-play').click())).toBe(true);

    await card.getByTestId('purchased-add-to-playlist').click();
    await page.waitForURL('**/playback');
    await page.locator('#playlist-tab-files').click();
    await expect
      .poll(() => page.getByTestId('accessible-file').filter({ hasText: TITLE }).count(), { timeout: 15_000 })
      .toBe(1);
  }, 90_000);

  it('the dashboard counts it beside the own files', async () => {
    await page.goto('/');
    const purchased = page.getByTestId('dashboard-purchased');
    await purchased.waitFor({ timeout: 15_000 });
    expect(await purchased.textContent()).toBe('購入済み 1 件');
    expect(await page.getByTestId('dashboard-ending-soon').count()).toBe(0);
    await purchased.click();
    await page.locator(`[data-testid="purchased-card"][data-file-id="${file.id}"]`).waitFor({ timeout: 15_000 });
  }, 60_000);

  it('axe finds nothing serious on the changed screens; screenshots at 1440 px in en, fr and ja', async () => {
    const problems: string[] = [];
    await page.setViewportSize({ width: 1440, height: 1000 });
    for (const lang of ['en', 'fr', 'ja'] satisfies Language[]) {
      await setLanguage(page, lang);
      const screens: Array<[string, () => Promise<unknown>]> = [
        ['files-purchased', () => page.goto('/files?view=purchased')],
        ['marketplace-card', marketCard],
        ['dashboard', () => page.goto('/')],
      ];
      for (const [name, open] of screens) {
        await open();
        await screenReady(page);
        if (name === 'files-purchased') await page.getByTestId('purchased-card').first().waitFor();
        if (name === 'dashboard') await page.getByTestId('dashboard-purchased').waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        for (const v of await seriousViolations(page))
          problems.push(`${lang} ${name}: axe ${v.impact} ${v.rule} (${v.help}) at ${v.targets.join(' | ')}`);
        await page.screenshot({ path: path.join(screensDir, `bought-${name}-${lang}-1440.png`) });
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);
});

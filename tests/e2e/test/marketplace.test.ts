// The marketplace journey in Chromium against the whole stack: A publishes a document with a Japanese title and a
// tag; B pays for points with a test card (localstripe), upgrades to standard, finds the document by a Japanese
// word and the tag, previews it, buys it, plays it and adds it to a playlist; A's sales move; the licence ends on
// the marketplace's test clock and B's open player stops showing it. Nothing is mocked but the card provider.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toastText } from './account-flows';
import type { Session } from './browser';
import { type Api, signedInMember, type UploadedFile } from './player-helpers';
import { buyTenThousandPoints, publishListing, signedInBuyer } from './steps';

// the shared test database keeps earlier runs' listings: this run's tag tells its own apart
const RUN = Math.random().toString(36).slice(2, 8);
const TITLE = `春の新商品カタログ ${RUN}`;
const TAG = `セール${RUN}`;

let seller: Api;
let file: UploadedFile;
let session: Session;
let page: Page;
let earningsBefore: number;

async function buyerCall(method: string, url: string, body?: unknown) {
  const cookie = (await session.context.cookies()).find((c) => c.name === 'pc_session');
  const res = await page.request.fetch(url, {
    method,
    headers: { ...(cookie ? { cookie: `pc_session=${cookie.value}` } : {}), 'content-type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  return res;
}

beforeAll(async () => {
  seller = await signedInMember();
  file = await publishListing(seller, 'tracemonkey.pdf', TITLE, [TAG, 'カタログ']);
  earningsBefore = (await seller.json<{ monthlyEarnings: number }>('GET', '/api/dashboard/stats')).monthlyEarnings;
  ({ session, page } = await signedInBuyer());
});

afterAll(async () => {
  await session?.close();
});

describe('marketplace journey', () => {
  it('B buys points with a test card and upgrades to standard', async () => {
    await buyTenThousandPoints(page);
    await expect.poll(() => page.getByTestId('points-balance').textContent(), { timeout: 15_000 }).toBe('10,300 pt');
    const standard = page.getByTestId('points-upgrade-standard');
    await expect.poll(() => standard.isEnabled(), { timeout: 15_000 }).toBe(true);
    await standard.click();
    await page.getByTestId('points-membership-confirm').click();
    await toastText(page, 'アップグレード完了');
    await expect.poll(() => page.getByTestId('points-balance').textContent(), { timeout: 15_000 }).toBe('7,300 pt');
  });

  it('B finds it by a Japanese word and its tag, previews every page, and buys it after confirming', async () => {
    await page.goto('/marketplace');
    await page.getByTestId('marketplace-page').waitFor();
    await page.getByTestId('market-search').fill('新商品');
    await page.getByTestId('market-tag-input').fill(TAG);
    await page.getByTestId('market-tag-add').click();
    const card = page.locator(`[data-testid="market-card"][data-file-id="${file.id}"]`);
    await card.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('market-card').count()).toBe(1);
    expect(await card.getAttribute('data-title')).toBe(TITLE);
    expect(await card.getByTestId('market-pages').textContent()).toBe(`${file.pageCount} ページ`);
    expect(await card.getByTestId('market-buy').textContent()).toBe('購入する');
    // the thumbnail is an image the browser could decode
    await expect
      .poll(() => card.getByTestId('market-thumb').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);

    await card.getByTestId('market-preview-open').click();
    const pages = page.getByTestId('market-preview-page');
    await expect.poll(() => pages.count(), { timeout: 15_000 }).toBe(file.pageCount);
    await pages.first().scrollIntoViewIfNeeded();
    await expect
      .poll(() => pages.first().evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    // low resolution, never the full page
    expect(await pages.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(480);
    await page.getByTestId('market-preview-buy').click();

    await page.getByTestId('market-confirm').waitFor();
    expect(await page.getByTestId('market-confirm-after').textContent()).toBe('4,300 ポイント');
    await page.getByTestId('market-confirm-buy').click();
    await toastText(page, 'コンテンツを購入しました');
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('licensed');
    await expect.poll(() => page.getByTestId('points-balance').textContent(), { timeout: 15_000 }).toBe('4,300 pt');
  });

  it('B plays it and adds it to a playlist; A sees the sale, the earnings and the purchaser', async () => {
    const accessible = (await (await buyerCall('GET', '/api/files/accessible')).json()) as Array<{ id: string }>;
    expect(accessible.map((f) => f.id)).toContain(file.id);
    const created = await buyerCall('POST', '/api/playlists', { name: '店頭' });
    expect(created.ok()).toBe(true);
    const { id: playlistId } = (await created.json()) as { id: string };
    const saved = await buyerCall('PUT', `/api/playlists/${playlistId}/items`, { fileIds: [file.id] });
    expect(saved.ok()).toBe(true);

    await page.goto(`/signage/${file.id}`);
    await expect.poll(() => page.getByTestId('player-title').textContent(), { timeout: 15_000 }).toBe(TITLE);

    const mine = await seller.json<Array<{ id: string; copiesSold?: number; pointsEarned?: number }>>(
      'GET',
      '/api/files',
    );
    expect(mine.find((f) => f.id === file.id)).toMatchObject({ copiesSold: 1, pointsEarned: 2000 });
    const purchasers = await seller.json<{ activePurchaserCount: number }>('GET', `/api/files/${file.id}/purchasers`);
    expect(purchasers.activePurchaserCount).toBe(1);
    // the dashboard's sum follows billing's event, a moment after the purchase
    const earned = async () =>
      (await seller.json<{ monthlyEarnings: number }>('GET', '/api/dashboard/stats')).monthlyEarnings - earningsBefore;
    await expect.poll(earned, { timeout: 15_000 }).toBe(2000); // price 3000 less the fee of 1000
  });

  it("when the licence ends, B's open player stops showing it and it leaves B's playable list", async () => {
    const stackEnv = inject('stackEnv');
    if (!stackEnv?.MARKETPLACE_URL) throw new Error('needs the test stack (MARKETPLACE_URL), not E2E_BASE_URL');
    // the player is still showing the file when the clock moves
    expect(await page.getByTestId('player-title').textContent()).toBe(TITLE);
    expect(await page.getByTestId('player-error').count()).toBe(0);
    const moved = await fetch(`${stackEnv.MARKETPLACE_URL}/internal/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 30 * 86_400_000 + 60_000 }),
    });
    expect(moved.status).toBe(200);
    // the server first: the file leaves B's playable list and its pages are refused to B
    await expect
      .poll(
        async () =>
          ((await (await buyerCall('GET', '/api/files/accessible')).json()) as Array<{ id: string }>).map((f) => f.id),
        { timeout: 15_000 },
      )
      .not.toContain(file.id);
    expect((await buyerCall('GET', `/api/files/${file.id}/pages?signage_mode=true`)).status()).toBe(404);
    // then B's open player, told by the live stream
    await page.getByTestId('player-error').waitFor({ timeout: 15_000 });
    const purchasers = await seller.json<{ activePurchaserCount: number }>('GET', `/api/files/${file.id}/purchasers`);
    expect(purchasers.activePurchaserCount).toBe(0);
  });
});

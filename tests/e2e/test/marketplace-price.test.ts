// A purchase is made at the price the buyer saw, in Chromium against the whole stack: B opens the confirmation of a
// listing at 3,000 points; A, the seller, sets 10,000 through the API meanwhile; B's confirmation is refused with the
// new price shown in the dialog, nothing charged; B confirms again and pays 10,000. Nothing is mocked but the card
// provider (localstripe), through which B first buys the points.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toastText } from './account-flows';
import type { Session } from './browser';
import { type Api, signedInMember, type UploadedFile } from './player-helpers';
import { buyTenThousandPoints, publishListing, signedInBuyer } from './steps';

// the shared test database keeps earlier runs' listings: this run's tag tells its own apart
const RUN = Math.random().toString(36).slice(2, 8);
const TITLE = `値上げ前の資料 ${RUN}`;
const TAG = `値上げ${RUN}`;

let seller: Api;
let file: UploadedFile;
let session: Session;
let page: Page;

/** A call with B's session cookie (what B's own page would read). */
async function buyerJson<T>(method: string, url: string): Promise<T> {
  const cookie = (await session.context.cookies()).find((c) => c.name === 'pc_session');
  const res = await page.request.fetch(url, {
    method,
    headers: cookie ? { cookie: `pc_session=${cookie.value}` } : {},
  });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}
const balance = async () => (await buyerJson<{ balance: number }>('GET', '/api/points/summary')).balance;
/** The listing's price as the marketplace sells it now. */
const listedPrice = async () =>
  (
    await buyerJson<{ files: Array<{ id: string; publishPrice: number }> }>(
      'GET',
      `/api/marketplace?tags=${encodeURIComponent(TAG)}`,
    )
  ).files.find((f) => f.id === file.id)?.publishPrice;

beforeAll(async () => {
  seller = await signedInMember();
  file = await publishListing(seller, 'vertical.pdf', TITLE, [TAG]);
  ({ session, page } = await signedInBuyer());
});

afterAll(async () => {
  await session?.close();
});

describe('buying at the price the buyer saw', () => {
  it('B buys 10,000 points with a test card', async () => {
    await buyTenThousandPoints(page);
    await expect.poll(balance, { timeout: 15_000 }).toBe(10_300);
  });

  it('the seller raises the price while B confirms: B sees the new price, confirms again and pays it', async () => {
    await page.goto('/marketplace');
    await page.getByTestId('marketplace-page').waitFor();
    await page.getByTestId('market-tag-input').fill(TAG);
    await page.getByTestId('market-tag-add').click();
    const card = page.locator(`[data-testid="market-card"][data-file-id="${file.id}"]`);
    await card.waitFor({ timeout: 15_000 });
    await card.getByTestId('market-buy').click();
    await page.getByTestId('market-confirm').waitFor();
    expect(await page.getByTestId('market-confirm-price').textContent()).toBe('3,000 ポイント');
    expect(await page.getByTestId('market-confirm-buy').textContent()).toBe('3,000 ポイントで購入');

    // A sets 10,000 through the API; the marketplace sells at it once file-conversion's event has reached it
    await seller.json('PUT', `/api/files/${file.id}/publish`, {
      isPublished: true,
      publishPrice: 10000,
      copyrightInfo: { authorName: '山田 花子' },
    });
    await expect.poll(listedPrice, { timeout: 15_000 }).toBe(10000);

    await page.getByTestId('market-confirm-buy').click();
    const notice = page.getByTestId('market-price-changed');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toBe(
      '価格が 3,000 ポイントから 10,000 ポイントに変更されました。この価格で購入する場合は、もう一度確認してください。',
    );
    expect(await page.getByTestId('market-confirm-price').textContent()).toBe('10,000 ポイント');
    expect(await page.getByTestId('market-confirm-after').textContent()).toBe('300 ポイント');
    expect(await page.getByTestId('market-confirm-buy').textContent()).toBe('10,000 ポイントで購入');
    // refused: nothing was charged, nothing bought
    expect(await balance()).toBe(10_300);
    expect(await card.getAttribute('data-state')).not.toBe('licensed');

    await page.getByTestId('market-confirm-buy').click();
    await toastText(page, 'コンテンツを購入しました');
    await page.getByTestId('market-confirm').waitFor({ state: 'detached' });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('licensed');
    expect(await balance()).toBe(300);
    // A's sales follow the purchase's event: 10,000 less the fee of 3,000
    const sales = async () =>
      (await seller.json<Array<{ id: string; copiesSold?: number; pointsEarned?: number }>>('GET', '/api/files')).find(
        (f) => f.id === file.id,
      );
    await expect.poll(sales, { timeout: 15_000 }).toMatchObject({ copiesSold: 1, pointsEarned: 7000 });
  });
});

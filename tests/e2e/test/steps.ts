import type { Page } from 'playwright-core';
import { createVerifiedMember, type Member } from './account';
import { logIn, toastText } from './account-flows';
import { openBrowser, type Session } from './browser';
import { type Api, type UploadedFile, uploadPdf } from './player-helpers';

/**
 * Names the step a long browser test is on, so that a hang fails with where it stuck and how long the steps before
 * took. Some page calls have no time-out of their own (page.evaluate waits as long as the page does), and a test that
 * only hits its own time-out says nothing about which of its hundred steps never ended.
 */
export interface Steps {
  /** The step about to run (the one before is done). */
  step(label: string): void;
  /** Runs the work; fails `limitMs` after the start with the step it is on, unless the work ended first. */
  within<T>(limitMs: number, work: () => Promise<T>): Promise<T>;
}

export function steps(): Steps {
  let current = 'the start';
  let since = Date.now();
  const took: Array<{ label: string; ms: number }> = [];
  return {
    step(label) {
      took.push({ label: current, ms: Date.now() - since });
      current = label;
      since = Date.now();
    },
    async within(limitMs, work) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const slowest = [...took]
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 5)
            .map((s) => `${s.label} ${s.ms} ms`);
          reject(
            new Error(
              `stuck for ${Date.now() - since} ms at: ${current} (after ${took.length} steps; slowest: ${slowest.join(', ')})`,
            ),
          );
        }, limitMs);
      });
      try {
        return await Promise.race([work(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

// The marketplace's steps that several journeys begin with.

/** A's listing on sale at 3,000 points: `pdf` uploaded as `title`, given `tags`, published with an author. */
export async function publishListing(seller: Api, pdf: string, title: string, tags: string[]): Promise<UploadedFile> {
  const file = await uploadPdf(seller, pdf, title, 5);
  await seller.json('PUT', `/api/files/${file.id}`, { tags });
  await seller.json('PUT', `/api/files/${file.id}/publish`, {
    isPublished: true,
    publishPrice: 3000,
    copyrightInfo: { authorName: '山田 花子' },
  });
  return file;
}

/** B: a new verified member, signed in on a browser of its own. */
export async function signedInBuyer(): Promise<{ buyer: Member; session: Session; page: Page }> {
  const buyer = await createVerifiedMember();
  const session = await openBrowser();
  const { page } = session;
  await page.goto('/login');
  await logIn(page, buyer.email, buyer.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 15_000 });
  return { buyer, session, page };
}

/** B buys the 10,000-point package on the points page with the card provider's test card; the dialog has closed. */
export async function buyTenThousandPoints(page: Page): Promise<void> {
  await page.goto('/points');
  await page.getByTestId('points-buy').click();
  await payTenThousandInDialog(page);
}

/** In the open point purchase dialog: the 10,000-point package, paid with the test card; the dialog has closed. */
export async function payTenThousandInDialog(page: Page): Promise<void> {
  const dialog = page.getByTestId('purchase-dialog');
  await dialog.waitFor();
  await page.getByTestId('purchase-package-10000').click();
  await page.getByTestId('purchase-proceed').click();
  const card = page.getByTestId('purchase-card');
  await card.locator('input[placeholder="number"]').waitFor({ timeout: 15_000 });
  await card.locator('input[placeholder="number"]').fill('4242424242424242');
  await card.locator('input[placeholder="exp_month"]').fill('12');
  await card.locator('input[placeholder="exp_year"]').fill('34');
  await card.locator('input[placeholder="cvc"]').fill('123');
  await card.locator('input[placeholder="postal_code"]').fill('10001');
  await page.getByTestId('purchase-pay').click();
  await toastText(page, 'ポイントを購入しました');
  await dialog.waitFor({ state: 'detached' });
}

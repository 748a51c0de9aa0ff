// What a new member trips on, page by page, in en, fr and ja at 1440 × 900 (and 390 × 844 where the phone matters):
// the header (initials of a Japanese name, the fleet in the navigation, the skip link, the balance and the menu on a
// phone), the welcome page's plans, what a buyer is told of a listing's author and copyright (card, preview after
// the purchase, purchase dialog, bought files), the not-found page, the upload dialog's two progress bars and the
// player's header. Screenshots go to .data/screenshots (docs/screenshots with PAGECAST_SCREENSHOTS=docs), named
// <page>-<lang>-<phase>[-390].png, the phase from PAGECAST_SHOT_PHASE (default after): "before" is taken from the
// code before the change, with the same test.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../test/browser';
import {
  type Api,
  openPlayerBrowser,
  type PlayerBrowser,
  signedInMember,
  type UploadedFile,
} from '../test/player-helpers';
import { type Language, screenReady, setLanguage } from '../test/screens';
import { buyTenThousandPoints, publishListing } from '../test/steps';

const shots = path.resolve(
  import.meta.dirname,
  process.env.PAGECAST_SCREENSHOTS === 'docs' ? '../../../docs/screenshots' : '../../../.data/screenshots',
);
const phase = process.env.PAGECAST_SHOT_PHASE === 'before' ? 'before' : 'after';
const languages: Language[] = ['en', 'fr', 'ja'];
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };
// the shared test database keeps earlier runs' listings: this run's tag tells its own apart
const RUN = Math.random().toString(36).slice(2, 8);
const TAG = `ux${RUN}`;

let seller: Api;
let buyer: Api;
let bought: UploadedFile;
let browser: PlayerBrowser;
let page: Page;

async function shoot(name: string, lang: Language, size: { width: number }, fullPage = false) {
  // the fade-ins are over before the picture
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  const suffix = size.width === phone.width ? '-390' : '';
  await page.screenshot({ path: path.join(shots, `${name}-${lang}-${phase}${suffix}.png`), fullPage });
}

async function open(url: string, lang: Language, size = desktop, ready = true) {
  await page.setViewportSize(size);
  await page.goto(url);
  await setLanguage(page, lang);
  await page.goto(url);
  if (ready) await screenReady(page);
}

/** The marketplace filtered to this run's two listings. */
async function runListings(lang: Language, size = desktop) {
  await open('/marketplace', lang, size);
  await page.getByTestId('market-tag-input').fill(TAG);
  await page.getByTestId('market-tag-add').click();
  await expect.poll(() => page.getByTestId('market-card').count(), { timeout: 15_000 }).toBe(2);
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  seller = await signedInMember();
  const copyright = { authorName: 'Jean Dupont', companyName: 'Atelier Nord', copyrightText: '© 2026 Atelier Nord' };
  bought = await publishListing(seller, 'tracemonkey.pdf', `Catalogue ${RUN}`, [TAG]);
  await seller.json('PUT', `/api/files/${bought.id}/publish`, {
    isPublished: true,
    publishPrice: 3000,
    copyrightInfo: copyright,
  });
  const other = await publishListing(seller, 'vertical.pdf', `Affiche ${RUN}`, [TAG]);
  await seller.json('PUT', `/api/files/${other.id}/publish`, {
    isPublished: true,
    publishPrice: 5000,
    copyrightInfo: copyright,
  });
  // a trial member with a Japanese name, who buys the first listing
  buyer = await signedInMember();
  await buyer.json('PUT', '/api/user/profile', { firstName: '花子', lastName: '山田', profileImageUrl: '' });
  browser = await openPlayerBrowser(buyer, { locale: 'ja-JP' });
  page = browser.page;
  await buyTenThousandPoints(page);
  await buyer.json('POST', `/api/marketplace/purchase/${bought.id}`, { expectedPrice: 3000 });
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe.each(languages)('what a new member sees (%s)', (lang) => {
  it('the header: initials, navigation with the fleet, skip link, balance and menu on a phone', async () => {
    for (const size of [desktop, phone]) {
      await open('/', lang, size);
      // the first Tab: the skip link, where there is one
      await page.keyboard.press('Tab');
      await shoot('header', lang, size);
    }
    if (phase === 'after') {
      expect(await page.getByTestId('user-menu').textContent()).toBe('山');
    }
  });

  it('the welcome page: what each plan may do', async () => {
    for (const size of [desktop, phone]) {
      await open('/welcome', lang, size);
      await shoot('welcome-plans', lang, size, size === desktop);
    }
  });

  it('a buyer sees the author and copyright: cards, the bought listing’s preview, the purchase dialog', async () => {
    for (const size of [desktop, phone]) {
      await runListings(lang, size);
      await shoot('market-copyright', lang, size);
    }
    const cards = page.getByTestId('market-card');
    await cards
      .filter({ hasText: `Catalogue ${RUN}` })
      .getByTestId('market-preview-open')
      .click();
    await page.getByTestId('market-preview').waitFor();
    await shoot('market-preview-bought', lang, phone);
    await page.keyboard.press('Escape');
    await cards
      .filter({ hasText: `Affiche ${RUN}` })
      .getByTestId('market-buy')
      .click();
    await page.getByTestId('market-confirm').waitFor();
    await shoot('market-confirm', lang, phone);
    await page.keyboard.press('Escape');

    await open('/files', lang);
    await page.getByTestId('files-tab-purchased').click();
    await page.getByTestId('purchased-card').first().waitFor();
    await shoot('files-purchased-copyright', lang, desktop);
  });

  it('the not-found page and the player header in the reader’s language', async () => {
    await open('/no-such-page', lang);
    await shoot('not-found-words', lang, desktop);
    await open(`/signage/${bought.id}`, lang, desktop, false);
    await page.getByTestId('player-title').waitFor({ timeout: 20_000 });
    await page.mouse.move(700, 400);
    await page.mouse.move(720, 420);
    await shoot('player-header', lang, desktop);
  });

  it('the upload dialog labels its two progress bars', async () => {
    await open('/files', lang);
    await page.getByTestId('files-upload').click();
    await page.getByTestId('upload-dialog').waitFor();
    await page.locator('input[type="file"]').setInputFiles(path.join(corpusDir, 'pdf', 'tracemonkey.pdf'));
    await page.getByTestId('upload-submit').click();
    await page.getByTestId('conversion-progress').waitFor({ timeout: 30_000 });
    await shoot('files-upload-progress', lang, desktop);
    await page.keyboard.press('Escape');
  });
});

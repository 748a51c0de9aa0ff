// The money half end to end, in Chromium against the whole stack: a member pays for points with a test card through
// the card provider's stand-in (localstripe: its Stripe.js in the page, its API behind billing), sees the balance and
// history move, upgrades to standard, schedules a downgrade and cancels it. Nothing here is mocked but the provider.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedMember, type Member } from './account';
import { logIn, screenshots, toastText } from './account-flows';
import { openBrowser, type Session } from './browser';

let member: Member;
let session: Session;
let page: Page;
const cspViolations: string[] = [];

const value = (testId: string) => page.getByTestId(testId).textContent();
/** When the upgrade was confirmed (ms): between these two instants. */
const upgradedAt = { from: 0, to: 0 };

/** The Tokyo calendar date one calendar month after `ms` (the same day, or the last day of a shorter month). */
function oneMonthLaterInTokyo(ms: number): string {
  const tokyo = new Date(ms + 9 * 3600_000);
  const year = tokyo.getUTCFullYear();
  const next = tokyo.getUTCMonth() + 1;
  const day = Math.min(tokyo.getUTCDate(), new Date(Date.UTC(year, next + 1, 0)).getUTCDate());
  return new Date(Date.UTC(year, next, day) - 9 * 3600_000).toLocaleDateString('ja', { timeZone: 'Asia/Tokyo' });
}
const historyRows = () => page.getByTestId('points-history-row');

/**
 * Pixels by which this screen's own content (the page and the open dialog; the shared header is checked apart) runs
 * past the window's right edge at this width (360 px to 1920 px), with the elements that do.
 */
async function overflowAt(width: number): Promise<{ px: number; offenders: string[] }> {
  await page.setViewportSize({ width, height: 900 });
  return page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const roots = [...document.querySelectorAll('[data-testid="points-page"], [role="dialog"]')];
    let px = 0;
    const offenders: string[] = [];
    // an element inside a box that clips or scrolls within the window does not push the page sideways
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= edge) return true;
      }
      return false;
    };
    for (const el of roots.flatMap((r) => [r, ...r.querySelectorAll('*')])) {
      const over = Math.ceil(el.getBoundingClientRect().right - edge);
      if (over > 0 && !clipped(el)) {
        px = Math.max(px, over);
        offenders.push(`${el.tagName.toLowerCase()}.${el.className} ${over}px`);
      }
    }
    return { px, offenders: offenders.slice(0, 5) };
  });
}

/** Types a card into the stand-in's card element (plain inputs; the real Stripe.js would use its own frame). */
async function fillCard(number: string) {
  const card = page.getByTestId('purchase-card');
  await card.locator('input[placeholder="number"]').waitFor({ timeout: 15_000 });
  await card.locator('input[placeholder="number"]').fill(number);
  await card.locator('input[placeholder="exp_month"]').fill('12');
  await card.locator('input[placeholder="exp_year"]').fill('34');
  await card.locator('input[placeholder="cvc"]').fill('123');
  await card.locator('input[placeholder="postal_code"]').fill('10001');
}

beforeAll(async () => {
  member = await createVerifiedMember();
  session = await openBrowser();
  page = session.page;
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto('/login');
  await logIn(page, member.email, member.password);
  await page.getByTestId('app-header').waitFor();
});

afterAll(async () => {
  await session?.close();
});

describe('points, card payments and plans', () => {
  it('the Points screen shows the opening balance from billing, its history row and no unavailable banner', async () => {
    await page.goto('/points');
    await page.getByTestId('points-page').waitFor();
    expect(await page.locator('h1').textContent()).toBe('ポイント管理');
    await expect.poll(() => value('points-balance-card-value'), { timeout: 15_000 }).toBe('300 ポイント');
    await expect.poll(() => historyRows().count()).toBe(1);
    expect(await historyRows().first().getAttribute('data-type')).toBe('earn');
    expect(await value('points-membership-tier')).toBe('トライアル');
    // card payments are configured in the test stack: the red banner is not shown, cash-out stays disabled
    expect(await page.getByTestId('points-unavailable').count()).toBe(0);
    expect(await page.getByTestId('points-cash-out-button').isDisabled()).toBe(true);
    // 300 points pay for neither plan
    expect(await page.getByTestId('points-upgrade-standard').isDisabled()).toBe(true);
    expect(await page.getByTestId('points-upgrade-creator').isDisabled()).toBe(true);
    expect(await overflowAt(360)).toEqual({ px: 0, offenders: [] });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the purchase dialog is keyboard-only usable: focus starts on the packages, stays inside, returns on close', async () => {
    const buy = page.getByTestId('points-buy');
    await buy.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    const focusInDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    // the dialog moves focus to the chosen package a frame after it opens: polled, not read once
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value))
      .toBe('3000');
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('points-buy');
  });

  it('a declined card changes nothing and says why', async () => {
    await page.getByTestId('points-buy').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('input[name="point-package"]:checked').getAttribute('value')).toBe('3000');
    await page.getByTestId('purchase-proceed').click();
    // a card the provider accepts but whose charge it declines (4000000000000341 at Stripe and localstripe alike)
    await fillCard('4000000000000341');
    await page.getByTestId('purchase-pay').click();
    // why, in the reader's language: billing's PAYMENT_FAILED carries the provider's code (card_declined), not its
    // English sentence
    const said = await toastText(page, 'お支払いに失敗しました');
    expect(said).toContain('カードが拒否されました。');
    expect(said).not.toContain('Your card was declined');
    // still on the card step, nothing credited
    expect(await page.getByTestId('purchase-pay').isVisible()).toBe(true);
    await page.getByTestId('purchase-back').click();
    expect(await dialog.locator('input[name="point-package"]').count()).toBe(4);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await expect.poll(() => value('points-balance-card-value'), { timeout: 15_000 }).toBe('300 ポイント');
    await expect.poll(() => historyRows().count()).toBe(1);
  });

  it('buys the 3000 package with a test card: balance, header, purchased card and history move', async () => {
    await page.getByTestId('points-buy').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    await page.getByTestId('purchase-proceed').click();
    expect(await dialog.textContent()).toContain('3,000ポイント（3,000円）を購入します');
    await fillCard('4242424242424242');
    await page.getByTestId('purchase-pay').click();
    expect(await toastText(page, 'ポイントを購入しました')).toContain('3,000ポイントが追加されました');
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => value('points-balance-card-value')).toBe('3,300 ポイント');
    await expect.poll(() => value('points-purchased-card-value')).toBe('3,000 ポイント');
    await expect.poll(() => page.getByTestId('points-balance').textContent()).toBe('3,300 pt');
    await expect.poll(() => historyRows().count()).toBe(2);
    const newest = historyRows().first();
    expect(await newest.getAttribute('data-type')).toBe('purchase');
    expect(await newest.getByTestId('points-history-amount').textContent()).toBe('+3,000');
    // the script came from the configured origin and the CSP let it run
    expect(session.requests.some((u) => u.includes('/js.stripe.com/v3/'))).toBe(true);
    expect(cspViolations).toEqual([]);
  });

  it('upgrades to standard with points after confirming', async () => {
    const standard = page.getByTestId('points-upgrade-standard');
    await expect.poll(() => standard.isEnabled()).toBe(true);
    expect(await page.getByTestId('points-upgrade-creator').isDisabled()).toBe(true); // 3,300 < 5,000
    await standard.click();
    // the confirmation says what is charged now, and when and how much next
    // (billing's offer was read with the page: around midnight in Tokyo, either side of it)
    const dialog = (await page.getByRole('dialog').textContent()) ?? '';
    const nexts = [Date.now() - 120_000, Date.now()].map(oneMonthLaterInTokyo);
    expect(
      nexts.some((next) => dialog.includes(`今すぐ3,000ポイント、次回は${next}に3,000ポイント`)),
      dialog,
    ).toBe(true);
    upgradedAt.from = Date.now();
    await page.getByTestId('points-membership-confirm').click();
    expect(await toastText(page, 'アップグレード完了')).toContain('スタンダード');
    upgradedAt.to = Date.now();
    await expect.poll(() => value('points-membership-tier')).toBe('スタンダード');
    await expect.poll(() => value('points-balance-card-value')).toBe('300 ポイント');
    await expect.poll(() => value('points-spent-card-value')).toBe('3,000 ポイント');
    await expect.poll(() => historyRows().count()).toBe(3);
    expect(await historyRows().first().getAttribute('data-type')).toBe('spend');
    expect(await historyRows().first().getByTestId('points-history-amount').textContent()).toBe('-3,000');
    expect(await value('points-membership-renewal')).toMatch(/次回更新日/);
  });

  it('schedules a downgrade to free, shows it as reserved, and cancels it', async () => {
    await page.getByTestId('points-downgrade-free').click();
    await page.getByTestId('points-membership-confirm').click();
    expect(await toastText(page, 'ダウングレードを予約しました')).toContain('無料');
    const pending = page.getByTestId('points-downgrade-pending');
    await pending.waitFor();
    expect(await pending.textContent()).toContain('ダウングレード予約中');
    expect(await pending.textContent()).toContain('無料プランになります');
    expect(await page.getByTestId('points-downgrade-free').count()).toBe(0);
    expect(await page.getByTestId('points-upgrade-creator').count()).toBe(0);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'points-downgrade-pending.png'), fullPage: true });

    // it is the server's state, not the page's
    await page.reload();
    await pending.waitFor({ timeout: 15_000 });

    await page.getByTestId('points-cancel-downgrade').click();
    expect(await toastText(page, 'ダウングレード予約をキャンセルしました')).toBeTruthy();
    await pending.waitFor({ state: 'detached' });
    await page.getByTestId('points-downgrade-free').waitFor();
    await page.reload();
    await page.getByTestId('points-downgrade-free').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('points-downgrade-pending').count()).toBe(0);
    expect(await value('points-membership-tier')).toBe('スタンダード');
  });

  it('the dashboard shows billing’s next renewal date and this month’s spending', async () => {
    await page.goto('/');
    await page.getByTestId('dashboard-page').waitFor();
    await expect.poll(() => value('dashboard-points-balance'), { timeout: 15_000 }).toMatch(/^300/);
    await expect.poll(() => value('dashboard-points-spent')).toBe('-3,000');
    expect(await page.getByTestId('dashboard-tier').textContent()).toContain('スタンダード');
    // standard renews one calendar month after the upgrade (Asia/Tokyo), not on the 1st of next month
    const expected = [...new Set([upgradedAt.from, upgradedAt.to].map(oneMonthLaterInTokyo))];
    await expect.poll(() => value('dashboard-renewal')).toMatch(/^次回更新日: /);
    expect(expected.map((date) => `次回更新日: ${date}`)).toContain(await value('dashboard-renewal'));
  });

  it('in French, the longest labels fit at 360, 1024 and 1440 px, with the purchase dialog open too', async () => {
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.goto('/points');
    await page.getByTestId('points-page').waitFor();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Gestion des points');
    await page.getByTestId('points-downgrade-free').waitFor({ timeout: 15_000 });
    mkdirSync(screenshots, { recursive: true });
    for (const width of [360, 1024, 1440]) {
      expect(await overflowAt(width), `page at ${width} px`).toEqual({ px: 0, offenders: [] });
      await page.screenshot({ path: path.join(screenshots, `points-fr-${width}.png`), fullPage: true });
      await page.getByTestId('points-buy').click();
      const dialog = page.getByTestId('purchase-dialog');
      await dialog.waitFor();
      expect(await overflowAt(width), `package step at ${width} px`).toEqual({ px: 0, offenders: [] });
      await page.getByTestId('purchase-proceed').click();
      await page.getByTestId('purchase-card').locator('input').first().waitFor();
      expect(await overflowAt(width), `card step at ${width} px`).toEqual({ px: 0, offenders: [] });
      await page.screenshot({ path: path.join(screenshots, `points-purchase-fr-${width}.png`) });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'ja'));
  });
});

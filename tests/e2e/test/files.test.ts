// The file library end to end: a member uploads a PDF and a PPTX through the modal (the progress bar moves, the
// pages appear), edits inline (persisted), publishes at 3000 and deletes; the dashboard counts the files.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedMember, type Member } from './account';
import { corpusDir, openBrowser, type Session } from './browser';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data/screenshots');
const PDF = path.join(corpusDir, 'pdf/vertical.pdf'); // 3 pages
const PPTX = path.join(corpusDir, 'pptx/ph-populated-placeholders.pptx');

let member: Member;
let session: Session;
let page: Page;

async function logIn(p: Page, m: Member) {
  await p.goto('/login');
  await p.getByLabel('メールアドレス').fill(m.email);
  await p.getByLabel('パスワード', { exact: true }).fill(m.password);
  await p.getByTestId('login-submit').click();
  await p.getByTestId('app-header').waitFor();
}

const card = (title: string): Locator => page.locator(`[data-testid="file-card"][data-title="${title}"]`);

async function toast(text: string): Promise<string> {
  const t = page.getByTestId('toast').filter({ hasText: text });
  await t.waitFor({ timeout: 15_000 });
  return (await t.textContent()) ?? '';
}

/** Records every value the upload progress bar shows, from inside the page, before the upload starts. */
async function recordProgress(p: Page) {
  await p.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __progress: number[] }).__progress = seen;
    const read = () => {
      const bar = document.querySelector('[data-testid="upload-progress"]');
      const value = bar?.getAttribute('aria-valuenow');
      if (value != null && seen.at(-1) !== Number(value)) seen.push(Number(value));
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

/** Uploads one file through the modal with the upload throttled, so the bytes take a visible time to go. */
async function uploadThroughModal(
  file: string,
  bytesPerSecond: number,
): Promise<{ title: string; progress: number[] }> {
  await page.getByTestId('files-upload').click();
  const dialog = page.getByTestId('upload-dialog');
  await dialog.waitFor();
  await page.getByTestId('upload-input').setInputFiles(file);
  await page.getByTestId('upload-selected').waitFor();
  const title = await page.getByLabel('タイトル').inputValue();
  expect(await page.getByLabel('表示時間（秒 / ページ）').inputValue()).toBe('30');

  const cdp = await session.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  await recordProgress(page);
  await page.getByTestId('upload-submit').click();
  // the bytes are sent: the modal moves on to the conversion (an earlier toast may still be showing)
  await page.getByTestId('upload-close').waitFor({ timeout: 30_000 });
  await toast('ファイルがアップロードされました');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.detach();
  const progress = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
  return { title, progress };
}

beforeAll(async () => {
  member = await createVerifiedMember();
  session = await openBrowser();
  page = session.page;
  await logIn(page, member);
});
afterAll(async () => {
  await session?.close();
});

describe('file library', () => {
  it('an empty library offers a first upload, which opens the upload modal', async () => {
    await page.goto('/files');
    await page.getByTestId('files-empty').waitFor();
    await page.getByTestId('files-empty-upload').click();
    await page.getByTestId('upload-dialog').waitFor();
    expect(await page.getByRole('dialog').textContent()).toContain('ここにファイルをドラッグ＆ドロップ');
    await page.getByRole('button', { name: 'キャンセル' }).click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'detached' });
  });

  it('uploads a PDF with a moving progress bar, then its pages appear as they are converted', async () => {
    const { title, progress } = await uploadThroughModal(PDF, 4 * 1024);
    expect(title).toBe('vertical'); // the file name without .pdf
    // 7 KB leave the browser in one chunk: the bar is seen empty, then full (the PPTX below shows the steps)
    expect(progress[0], JSON.stringify(progress)).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    // then the conversion: the modal follows it and closes when the pages are ready
    await page.getByTestId('upload-dialog').waitFor({ state: 'detached', timeout: 45_000 });
    const pdf = card('vertical');
    await pdf.waitFor();
    await expect.poll(() => pdf.getByTestId('file-pages').textContent(), { timeout: 45_000 }).toBe('3 ページ');
    expect(await pdf.getByTestId('file-status').textContent()).toBe('非公開');
    expect(await pdf.getByTestId('file-publish-settings').count()).toBe(1);
    // the conversion was followed on the gateway's live stream for that file (polling is only the fallback)
    const id = await pdf.getAttribute('data-file-id');
    expect(session.requests.some((u) => u.includes(`/api/events?file=${id}`))).toBe(true);
    // play and signage display open the player in a new tab
    expect(await pdf.getByTestId('file-play').getAttribute('href')).toBe(`/signage/${id}?autoplay=true`);
    expect(await pdf.getByTestId('file-signage').getAttribute('href')).toBe(`/signage/${id}`);
    expect(await pdf.getByTestId('file-signage').getAttribute('target')).toBe('_blank');
  });

  it('uploads a PPTX; while it converts the card shows its progress and no publish settings', async () => {
    const { title, progress } = await uploadThroughModal(PPTX, 96 * 1024);
    expect(title).toBe('ph-populated-placeholders.pptx');
    // 170 KB at 96 KB/s: the bar is seen between empty and full, rising
    expect(
      progress.some((v) => v > 0 && v < 100),
      JSON.stringify(progress),
    ).toBe(true);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'files-upload-converting.png') });
    // close the modal while it converts: the grid follows the conversion on its own
    await page.getByTestId('upload-close').click();
    const pptx = card('ph-populated-placeholders.pptx');
    await pptx.waitFor();
    if ((await pptx.getByTestId('file-status').getAttribute('data-status')) === 'processing') {
      expect(await pptx.getByTestId('file-status').textContent()).toBe('変換中');
      expect(await pptx.getByTestId('file-publish-settings').count()).toBe(0);
    }
    await expect
      .poll(() => pptx.getByTestId('file-status').getAttribute('data-status'), { timeout: 90_000 })
      .toBe('private');
    expect(Number((await pptx.getByTestId('file-pages').textContent())?.match(/\d+/)?.[0])).toBeGreaterThan(0);
    await pptx.getByTestId('file-publish-settings').waitFor();
  });

  it('inline edits: duration (Escape cancels, range checked, Enter saves), display mode and tags persist', async () => {
    const pdf = card('vertical');
    const pptx = card('ph-populated-placeholders.pptx');

    // one duration editor at a time: opening another card's closes the first
    await pdf.getByTestId('file-duration').click();
    await pdf.getByTestId('duration-editor').waitFor();
    await pptx.getByTestId('file-duration').click();
    await pptx.getByTestId('duration-editor').waitFor();
    expect(await pdf.getByTestId('duration-editor').count()).toBe(0);
    await pptx.getByTestId('duration-editor').getByRole('spinbutton').press('Escape');

    await pdf.getByTestId('file-duration').click();
    const input = pdf.getByTestId('duration-editor').getByRole('spinbutton');
    await input.fill('45');
    await input.press('Escape');
    expect(await pdf.getByTestId('file-duration').textContent()).toBe('30 秒 / ページ');

    await pdf.getByTestId('file-duration').click();
    await input.fill('301');
    await input.press('Enter');
    await pdf.getByText('表示時間は1〜300秒の間で入力してください').waitFor();
    await input.fill('45');
    await input.press('Enter');
    await toast('表示時間を更新しました');
    await expect.poll(() => pdf.getByTestId('file-duration').textContent()).toBe('45 秒 / ページ');

    await pdf.getByTestId('file-mode').click();
    await pdf.getByTestId('mode-editor').locator('select').selectOption('fill');
    await pdf.getByTestId('mode-editor').getByRole('button', { name: '保存' }).click();
    await toast('表示モードを更新しました');
    await expect.poll(() => pdf.getByTestId('file-mode').textContent()).toBe('全画面');

    await pdf.getByTestId('file-tags').click();
    const tags = pdf.getByTestId('tags-editor').getByRole('textbox');
    await tags.fill(` Meeting , NEWS, meeting,, ${'x'.repeat(31)}`);
    await tags.press('Enter');
    await pdf.getByText('タグは1〜30文字で入力してください').waitFor();
    await tags.fill(' Meeting , NEWS, meeting,, ');
    await tags.press('Enter');
    await toast('タグを更新しました');
    await expect.poll(() => pdf.locator('.pf-tag').allTextContents()).toEqual(['meeting', 'news']);

    await page.reload();
    await pdf.waitFor();
    expect(await pdf.getByTestId('file-duration').textContent()).toBe('45 秒 / ページ');
    expect(await pdf.getByTestId('file-mode').textContent()).toBe('全画面');
    expect(await pdf.locator('.pf-tag').allTextContents()).toEqual(['meeting', 'news']);
  });

  it('publish settings: a price plan is required, then the file is published at 3000 with its author', async () => {
    const pdf = card('vertical');
    await pdf.getByTestId('file-publish-settings').click();
    const dialog = page.getByTestId('publish-dialog');
    await dialog.waitFor();
    const plan = page.getByTestId('price-plan-3000');
    expect(await plan.textContent()).toContain('人気');
    expect(await plan.textContent()).toContain('手数料 1,000 ポイント');
    expect(await plan.textContent()).toContain('受取 2,000 ポイント');
    expect(await page.getByTestId('price-plan-5000').textContent()).toContain('おすすめ');
    expect(await page.getByTestId('price-plan-10000').textContent()).toContain('プレミアム');

    await page.getByTestId('publish-toggle').check();
    await page.getByTestId('publish-save').click();
    await dialog.getByText('公開する場合は価格プランを選択してください').waitFor();

    await plan.click();
    await dialog.getByLabel('著作者名').fill('Taro Yamada');
    await page.getByTestId('publish-save').click();
    await toast('公開設定が更新されました');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => pdf.getByTestId('file-status').textContent()).toBe('公開中');
    expect(await pdf.getByTestId('file-price').textContent()).toBe('3,000 ポイント');

    // the author is kept and offered again
    await pdf.getByTestId('file-publish-settings').click();
    await dialog.waitFor();
    await expect.poll(() => dialog.getByLabel('著作者名').inputValue()).toBe('Taro Yamada');
    expect(await page.getByTestId('publish-toggle').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'キャンセル' }).click();
    await dialog.waitFor({ state: 'detached' });
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'files-grid.png'), fullPage: true });
  });

  it('the dashboard shows the file count against the tier limit and the recent files with badges', async () => {
    await page.goto('/');
    await page.getByTestId('dashboard-page').waitFor();
    // the dashboard's own reads (files, billing's summary and membership) answer in turn: wait for the count's fact
    await expect
      .poll(() => page.getByTestId('dashboard-file-count-value').textContent(), { timeout: 10_000 })
      .toBe('2 / 3');
    expect(await page.getByTestId('dashboard-tier').textContent()).toContain('トライアル');
    // billing's membership is a read of its own: '…' until it answers
    await expect.poll(() => page.getByTestId('dashboard-renewal').textContent()).toMatch(/次回更新日/);
    const recent = page.getByTestId('dashboard-recent-file');
    expect(await recent.count()).toBe(2);
    const rows = await recent.allTextContents();
    expect(rows.find((r) => r.includes('vertical'))).toContain('公開中');
    expect(rows.find((r) => r.includes('ph-populated-placeholders.pptx'))).toContain('非公開');
    const play = recent.filter({ hasText: 'vertical' }).getByTestId('dashboard-recent-play');
    expect(await play.getAttribute('target')).toBe('_blank');
    expect(await play.getAttribute('href')).toMatch(/^\/signage\/[\w-]+$/);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'dashboard.png'), fullPage: true });

    // quick action: upload opens the modal on the file library
    await page.getByTestId('dashboard-upload').click();
    await page.waitForURL('**/files');
    await page.getByTestId('upload-dialog').waitFor();
    await page.getByRole('button', { name: 'キャンセル' }).click();
  });

  it('delete asks for confirmation (no buyers: 削除する) and removes the file', async () => {
    const pptx = card('ph-populated-placeholders.pptx');
    await pptx.getByTestId('file-delete').click();
    const dialog = page.getByTestId('delete-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('「ph-populated-placeholders.pptx」を削除しますか？');
    const confirm = page.getByTestId('delete-confirm');
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    expect(await confirm.textContent()).toBe('削除する');
    await confirm.click();
    await toast('ファイルを削除しました');
    await pptx.waitFor({ state: 'detached' });
    await page.reload();
    await card('vertical').waitFor();
    expect(await page.getByTestId('file-card').count()).toBe(1);
  });
});

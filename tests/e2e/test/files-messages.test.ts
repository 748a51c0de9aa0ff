// The upload modal's messages (spec points 5 and 8): wrong type by its bytes, too large, missing title, selling
// without a price plan or an author; a visitor sent to /login.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedMember, type Member } from './account';
import { corpusDir, openBrowser, type Session } from './browser';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data/screenshots');
const PDF = path.join(corpusDir, 'pdf/vertical.pdf');
// the spec's message, with the photo formats the upload now also takes
const TYPE_MESSAGE =
  'PDF、PowerPoint (.pptx)、Word (.docx) ファイルと画像（JPEG、PNG、WebP、GIF、HEIC、AVIF）、動画（MP4、MOV、WebM、MKV、AVI）のみアップロード可能です';

let member: Member;
let session: Session;
let page: Page;
let dir: string;

async function openUpload() {
  await page.goto('/files');
  await page.getByTestId('files-upload').click();
  await page.getByTestId('upload-dialog').waitFor();
}

const dialogText = async () => (await page.getByRole('dialog').textContent()) ?? '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-files-e2e-'));
  member = await createVerifiedMember();
  session = await openBrowser();
  page = session.page;
  await page.goto('/login');
  await page.getByLabel('メールアドレス').fill(member.email);
  await page.getByLabel('パスワード', { exact: true }).fill(member.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-header').waitFor();
});
afterAll(async () => {
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('upload modal messages', () => {
  it('a text file renamed .pdf is refused by its bytes with the spec message, and nothing is stored', async () => {
    const fake = path.join(dir, 'notes.pdf');
    writeFileSync(fake, 'just some text, not a PDF at all\n'.repeat(20));
    await openUpload();
    await page.getByTestId('upload-input').setInputFiles(fake);
    expect(await page.getByLabel('タイトル').inputValue()).toBe('notes');
    await page.getByTestId('upload-submit').click();
    const failure = page.getByTestId('toast').filter({ hasText: 'アップロードに失敗しました' });
    await failure.waitFor();
    expect(await failure.textContent()).toContain(TYPE_MESSAGE);
    await page.getByRole('dialog').getByText(TYPE_MESSAGE).waitFor();
    await page.getByRole('button', { name: 'キャンセル' }).click();
    await page.getByTestId('files-empty').waitFor();
  });

  it('a .txt file and a file over 10 MB are refused as soon as they are picked', async () => {
    const txt = path.join(dir, 'readme.txt');
    writeFileSync(txt, 'hello');
    const big = path.join(dir, 'big.pdf');
    writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1, 0x25));
    await openUpload();
    await page.getByTestId('upload-input').setInputFiles(txt);
    await page.getByRole('dialog').getByText(TYPE_MESSAGE).waitFor();
    await page.getByTestId('upload-input').setInputFiles(big);
    await page.getByRole('dialog').getByText('ファイルサイズは10MB以下にしてください').waitFor();
    expect(await dialogText()).not.toContain(TYPE_MESSAGE);
  });

  it('file and title are required', async () => {
    await openUpload();
    await page.getByTestId('upload-submit').click();
    await page.getByRole('dialog').getByText('ファイルとタイトルは必須です').waitFor();
    await page.getByTestId('upload-input').setInputFiles(PDF);
    await page.getByLabel('タイトル').fill('   ');
    await page.getByTestId('upload-submit').click();
    await page.getByRole('dialog').getByText('ファイルとタイトルは必須です').waitFor();
    expect(await page.getByTestId('upload-progress').count()).toBe(0);
  });

  it('selling needs a price plan and an author name; the plans show fee and net', async () => {
    await openUpload();
    await page.getByTestId('upload-input').setInputFiles(PDF);
    await page.getByTestId('upload-sell').check();
    const plans = await page.locator('[data-testid^="price-plan-"]').allTextContents();
    expect(plans).toHaveLength(3);
    expect(plans[1]).toContain('おすすめ');
    expect(plans[1]).toContain('手数料 1,500 ポイント');
    expect(plans[1]).toContain('受取 3,500 ポイント');
    await page.getByTestId('upload-submit').click();
    await page.getByRole('dialog').getByText('公開する場合は価格プランを選択してください').waitFor();
    await page.getByRole('dialog').getByText('販売する場合は著作者名が必要です').waitFor();
    await page.getByTestId('price-plan-3000').click();
    await page.getByTestId('upload-submit').click();
    await page.getByRole('dialog').getByText('販売する場合は著作者名が必要です').waitFor();
    expect(await dialogText()).not.toContain('公開する場合は価格プランを選択してください');
    // a display time that is not a number falls back to 30; out of range is refused
    await page.getByLabel('表示時間（秒 / ページ）').fill('90');
    await page.getByTestId('upload-submit').click();
    await page.getByRole('dialog').getByText('表示時間は1〜60秒の間で入力してください').waitFor();
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'files-upload-modal.png') });
    await page.getByRole('button', { name: 'キャンセル' }).click();
    // nothing was uploaded by any of these
    const res = await page.evaluate(async () => (await fetch('/api/files', { credentials: 'include' })).json());
    expect(res).toEqual([]);
  });
});

describe('signed out', () => {
  it('a visitor on /files is told to log in and taken to /login', async () => {
    const visitor = await openBrowser();
    try {
      await visitor.page.goto('/files');
      await visitor.page.getByTestId('toast').filter({ hasText: 'ログインが必要です' }).waitFor();
      await visitor.page.waitForURL('**/login');
    } finally {
      await visitor.close();
    }
  });
});

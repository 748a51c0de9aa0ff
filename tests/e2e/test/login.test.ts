import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedMember, type Member } from './account';
import { manifestOf, openBrowser, type Session } from './browser';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data/screenshots');
let member: Member;
let session: Session | undefined;
beforeAll(async () => {
  member = await createVerifiedMember();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function logIn(page: Page, password = member.password) {
  await page.getByLabel('メールアドレス').fill(member.email);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByTestId('login-submit').click();
}

describe('login and signed-in pages', () => {
  it('a wrong password shows the login-failure toast with the server message and stays on /login', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/login');
    await logIn(page, 'not the right password');
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    const text = await toast.textContent();
    expect(text).toContain('ログインに失敗しました');
    expect(text).toContain('メールアドレスまたはパスワードが正しくありません');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('the form checks the e-mail address before sending', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/login');
    await page.getByLabel('メールアドレス').fill('not-an-address');
    await page.getByTestId('login-submit').click();
    await page.getByText('有効なメールアドレスを入力してください').waitFor();
  });

  it('a first login goes to /welcome in the signed-in frame; remotes load inside it; an unknown file shows the not-found card', async () => {
    session = await openBrowser();
    const { page } = session;
    // first login of a new member goes to /welcome (spec point 4)
    await page.goto('/login');
    await logIn(page);
    await page.waitForURL('**/welcome');
    const header = page.getByTestId('app-header');
    await header.waitFor();
    expect(await page.getByTestId('user-menu').textContent()).toBe('TY');
    expect(await page.getByTestId('points-balance').textContent()).toMatch(/\d+ pt/);

    // the header's navigation reaches a remote inside the frame
    const filesManifest = page.waitForRequest((r) => r.url().endsWith(manifestOf('files')));
    await page.getByRole('link', { name: 'ファイル管理' }).first().click();
    await filesManifest;
    await page.getByRole('heading', { name: 'ファイル管理' }).waitFor();
    expect(await header.isVisible()).toBe(true);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'ポイント管理' }).waitFor();
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'files-signed-in.png') });
    await page.keyboard.press('Escape');

    // a file that does not exist (or that we may not see): the spec's not-found card
    await page.goto('/signage/0123456789abcdef01234567');
    const card = page.getByTestId('player-error');
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('ファイルが見つかりません');
    expect(text).toContain('このファイルは削除されたか、アクセス権限がありません。');
    expect(text).toContain('ダッシュボードに戻る');
  });

  it('a visitor sent to /login from /marketplace returns there after logging in', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/marketplace');
    await page.waitForURL('**/login', { timeout: 5000 });
    await logIn(page);
    await page.waitForURL('**/marketplace');
    await page.getByRole('heading', { name: 'マーケットプレイス' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('pagecast.returnPage'))).toBeNull();
  });

  it('an anonymous player that gets 401 remembers the page and goes to /login after 1 s', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/signage/0123456789abcdef01234567?autoplay=true');
    await page.getByTestId('toast').waitFor();
    await page.waitForURL('**/login', { timeout: 5000 });
    expect(await page.evaluate(() => sessionStorage.getItem('pagecast.returnPage'))).toBe(
      '/signage/0123456789abcdef01234567?autoplay=true',
    );
  });
});

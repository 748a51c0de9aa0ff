// The whole life of a member in the browser: register → mailed link → verified → first login → welcome → profile →
// password change (the other browser is logged out) → logout → login with the new password only.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fieldErrors,
  logIn,
  type Mail,
  mailedLink,
  mailsTo,
  screenshots,
  toastText,
  uniqueEmail,
} from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';

const email = uniqueEmail('journey');
const password = 'first password 123';
const newPassword = 'second password 456';
let a: Session;
let b: Session | undefined;

afterAll(async () => {
  await a?.close();
  await b?.close();
});

const pathOf = (url: string) => new URL(url).pathname;

async function currentUser(session: Session): Promise<{ status: number; body: Record<string, unknown> | null }> {
  return session.page.evaluate(async () => {
    const res = await fetch('/api/auth/user', { credentials: 'include' });
    return { status: res.status, body: res.ok ? ((await res.json()) as Record<string, unknown>) : null };
  });
}

describe('account journey', () => {
  it('registration shows every validation message, then sends the mail and goes to /verify-email', async () => {
    a = await openBrowser();
    const { page } = a;
    await page.goto('/register');
    await page.getByTestId('register-submit').click();
    await page.getByText('姓を入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual([
      '姓を入力してください',
      '名前を入力してください',
      '有効なメールアドレスを入力してください',
      'パスワードは12文字以上である必要があります',
    ]);
    // the show/hide toggle of the password
    const passwordInput = page.getByLabel('パスワード', { exact: true });
    await passwordInput.fill('short');
    expect(await passwordInput.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'パスワードを表示' }).click();
    expect(await passwordInput.getAttribute('type')).toBe('text');
    expect(await page.getByRole('link', { name: '利用規約' }).getAttribute('href')).toBe('/terms');
    expect(await page.getByRole('link', { name: 'プライバシーポリシー' }).getAttribute('href')).toBe('/privacy');
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'register.png'), fullPage: true });

    await page.getByLabel('姓', { exact: true }).fill('山田');
    await page.getByLabel('名', { exact: true }).fill('花子');
    await page.getByLabel('メールアドレス').fill(email);
    await passwordInput.fill(password);
    await page.getByTestId('register-submit').click();
    expect(await toastText(page, '登録完了')).toContain('登録完了');
    await page.waitForURL((url) => url.pathname === '/verify-email');
    expect(new URL(page.url()).searchParams.get('email')).toBe(email);
    const verify = page.getByTestId('verify-email-page');
    expect(await verify.getAttribute('data-state')).toBe('pending');
    expect(await verify.textContent()).toContain(email);
    expect(await page.getByTestId('verify-resend').isVisible()).toBe(true);

    // the same address again (upper-cased) answers as a new one: the same toast and page, nothing says it is taken;
    // its holder gets a mail in their language saying what to do, whose reset link fills the address in
    await page.goto('/register');
    await page.getByLabel('姓', { exact: true }).fill('山田');
    await page.getByLabel('名', { exact: true }).fill('花子');
    await page.getByLabel('メールアドレス').fill(email.toUpperCase());
    await page.getByLabel('パスワード', { exact: true }).fill('another password 789');
    await page.getByTestId('register-submit').click();
    expect(await toastText(page, '登録完了')).toContain('登録完了');
    await page.waitForURL((url) => url.pathname === '/verify-email');
    expect(new URL(page.url()).searchParams.get('email')).toBe(email);
    let notice: Mail | undefined;
    await expect
      .poll(
        async () => {
          notice = (await mailsTo(email)).find(
            (m) => m.subject === '【Pagecast】このメールアドレスで新規登録が試みられました',
          );
          return Boolean(notice);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(notice?.text).toMatch(/ログインする: https?:\/\/[^\s/]+\/login\n/);
    const reset = notice?.text?.match(/https?:\/\/[^\s/]+(\/request-password-reset\?[^\s]+)/)?.[1];
    expect(reset).toBeTruthy();
    await page.goto(reset ?? '/');
    expect(await page.getByLabel('メールアドレス').inputValue()).toBe(email);
  });

  it('the mailed link verifies the address; the first login goes to the welcome page, which marks itself seen', async () => {
    const { page } = a;
    const { link } = await mailedLink(email, 'verify-email');
    await page.goto(link);
    const verify = page.locator('[data-testid="verify-email-page"][data-state="success"]');
    await verify.waitFor();
    await page.getByTestId('verify-to-login').click();
    await page.waitForURL('**/login');

    await logIn(page, email, password);
    await page.waitForURL('**/welcome');
    await page.getByRole('heading', { name: 'ようこそ、花子さん！' }).waitFor();
    expect(await page.getByTestId('welcome-bonus').textContent()).toContain(
      '登録ボーナスとして300ポイントを付与しました',
    );
    expect(await page.getByTestId('welcome-points').textContent()).toBe('300 ポイント');
    expect(await page.getByTestId('welcome-plan').textContent()).toBe('トライアル');
    const plans = (await page.getByTestId('welcome-plans').textContent()) ?? '';
    expect(plans).toContain('月300ポイント相当、ファイル登録3件まで');
    expect(plans).toContain('月3,000ポイント、ファイル登録30件まで');
    expect(plans).toContain('月5,000ポイント、ファイル登録50件まで');
    await expect.poll(async () => (await currentUser(a)).body?.hasSeenWelcome, { timeout: 5000 }).toBe(true);

    await page.getByTestId('welcome-to-dashboard').click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('a later login (a second browser) is not a first login: it lands on /', async () => {
    b = await openBrowser();
    await b.page.goto('/login');
    await logIn(b.page, email, password);
    await b.page.waitForURL((url) => url.pathname === '/');
    await b.page.getByTestId('app-header').waitFor();
    await b.page.goto('/settings');
    await b.page.getByTestId('settings-page').waitFor();
  });

  it('settings: read-only facts, profile validation, cancel and save; the header follows', async () => {
    const { page } = a;
    await page.goto('/settings');
    await page.getByTestId('settings-page').waitFor();
    expect(await page.getByTestId('settings-email').textContent()).toBe(email);
    expect(await page.getByTestId('settings-points').textContent()).toBe('300 ポイント');
    expect(await page.getByTestId('settings-auth-method').textContent()).toContain('ローカルアカウント');
    expect(await page.getByTestId('password-card').textContent()).toContain('12文字以上');
    expect(await page.getByTestId('user-menu').textContent()).toBe('山');
    await page.screenshot({ path: path.join(screenshots, 'settings.png'), fullPage: true });

    await page.getByTestId('profile-edit').click();
    await page.getByLabel('姓', { exact: true }).fill('');
    await page.getByLabel('名', { exact: true }).fill('  ');
    await page.getByLabel('プロフィール画像URL').fill('not a url');
    await page.getByTestId('profile-save').click();
    await page.getByText('有効なURLを入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual([
      '姓を入力してください',
      '名前を入力してください',
      '有効なURLを入力してください',
    ]);
    await page.getByTestId('profile-cancel').click();
    expect(await page.getByTestId('profile-first-name-value').textContent()).toBe('花子');

    await page.getByTestId('profile-edit').click();
    await page.getByLabel('姓', { exact: true }).fill('佐藤');
    await page.getByLabel('名', { exact: true }).fill('次郎');
    await page.getByLabel('プロフィール画像URL').fill('');
    await page.getByTestId('profile-save').click();
    expect(await toastText(page, '更新完了')).toContain('プロフィールが正常に更新されました');
    expect(await page.getByTestId('profile-first-name-value').textContent()).toBe('次郎');
    expect(await page.getByTestId('profile-last-name-value').textContent()).toBe('佐藤');
    expect(await page.getByTestId('user-menu').textContent()).toBe('佐');
    expect((await currentUser(a)).body).toMatchObject({ firstName: '次郎', lastName: '佐藤' });

    // the contact page of a member: in the header, name and e-mail filled in
    await page.getByRole('link', { name: 'お問い合わせ' }).first().click();
    await page.getByTestId('contact-page').waitFor();
    expect(await page.getByLabel('お名前').inputValue()).toBe('佐藤 次郎');
    expect(await page.getByLabel('メールアドレス').inputValue()).toBe(email);
  });

  it('password change: every validation message, a wrong current password, then success; the other browser is logged out', async () => {
    const { page } = a;
    await page.goto('/settings');
    await page.getByTestId('password-card').waitFor();
    await page.getByTestId('password-submit').click();
    await page.getByText('現在のパスワードを入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual([
      '現在のパスワードを入力してください',
      '新しいパスワードは12文字以上である必要があります',
      'パスワードは12文字以上である必要があります',
    ]);
    await page.getByLabel('現在のパスワード').fill(password);
    await page.getByLabel('新しいパスワード', { exact: true }).fill(newPassword);
    await page.getByLabel('新しいパスワード（確認）').fill(`${newPassword}x`);
    await page.getByTestId('password-submit').click();
    await page.getByText('新しいパスワードが一致しません').waitFor();
    expect(await fieldErrors(page)).toEqual(['新しいパスワードが一致しません']);

    await page.getByLabel('現在のパスワード').fill('not my password!!');
    await page.getByLabel('新しいパスワード（確認）').fill(newPassword);
    await page.getByTestId('password-submit').click();
    expect(await toastText(page, 'パスワード変更エラー')).toContain('現在のパスワードが正しくありません');

    await page.getByLabel('現在のパスワード').fill(password);
    await page.getByTestId('password-submit').click();
    await toastText(page, 'パスワード変更完了');
    expect(await page.getByLabel('現在のパスワード').inputValue()).toBe('');
    expect((await currentUser(a)).status).toBe(200); // this browser's session goes on

    // The second browser, logged in before the change, is sent to /login on its next call.
    if (!b) throw new Error('no second browser');
    const other = b.page;
    await other.getByTestId('profile-edit').click();
    await other.getByTestId('profile-save').click();
    expect(await toastText(other, 'ログインが切れました')).toContain('ログアウトされました。ログイン画面に移動します…');
    await other.waitForURL('**/login');
    expect((await currentUser(b)).status).toBe(401);
    // it logs in again with the new password and is taken back to the settings (remembered page, once)
    await logIn(other, email, newPassword);
    await other.waitForURL('**/settings');
    expect(await other.evaluate(() => sessionStorage.getItem('pagecast.returnPage'))).toBeNull();
  });

  it('logout is a full navigation; afterwards the old password is refused and the new one accepted', async () => {
    const { page } = a;
    await page.getByTestId('user-menu').click();
    const logout = page.waitForRequest((r) => r.url() === `${baseUrl()}/api/logout` && r.isNavigationRequest());
    await page.getByRole('menuitem', { name: 'ログアウト' }).click();
    await logout;
    await page.getByTestId('landing-page').waitFor();
    expect((await currentUser(a)).status).toBe(401);

    await page.goto('/login');
    await logIn(page, email, password);
    expect(await toastText(page, 'ログインに失敗しました')).toContain(
      'メールアドレスまたはパスワードが正しくありません',
    );
    expect(pathOf(page.url())).toBe('/login');
    await logIn(page, email, newPassword);
    await page.waitForURL((url) => url.pathname === '/');
    expect((await currentUser(a)).status).toBe(200);
  });
});

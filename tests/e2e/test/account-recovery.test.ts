// Password reset by e-mail and the e-mail verification page's states and messages.
import { afterEach, describe, expect, it } from 'vitest';
import { createVerifiedMember } from './account';
import { fieldErrors, logIn, mailedLink, toastText, uniqueEmail } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const pathOf = (url: string) => new URL(url).pathname;

describe('password reset by e-mail', () => {
  it('request (validation, confirmation, send again) → mailed link → new password → /login after 2 s; old password refused', async () => {
    const member = await createVerifiedMember();
    session = await openBrowser();
    const { page } = session;
    await page.goto('/request-password-reset');
    expect(await page.getByRole('link', { name: '新規登録' }).getAttribute('href')).toBe('/register');
    await page.getByTestId('reset-request-submit').click();
    await page.getByText('有効なメールアドレスを入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual(['有効なメールアドレスを入力してください']);
    await page.getByLabel('メールアドレス').fill(member.email);
    await page.getByTestId('reset-request-submit').click();
    await toastText(page, 'リセット要求を送信しました');
    expect(await page.getByTestId('reset-request-sent').textContent()).toContain(member.email);
    const first = await mailedLink(member.email, 'reset-password');

    // 'send again' mails a new link that replaces the first one
    await page.getByTestId('reset-send-again').click();
    await toastText(page, 'リセット要求を送信しました');
    const second = await mailedLink(member.email, 'reset-password', new Set([first.id]));
    expect(second.link).not.toBe(first.link);
    await page.getByRole('link', { name: 'ログイン画面に戻る' }).click();
    await page.waitForURL('**/login');

    // the replaced link fails with the reset-failure toast
    await page.goto(first.link);
    await page.getByLabel('新しいパスワード').fill('a brand new password');
    await page.getByLabel('パスワード（確認）').fill('a brand new password');
    await page.getByTestId('reset-submit').click();
    expect(await toastText(page, 'パスワード変更に失敗しました')).toContain('トークンが無効または期限切れです');

    await page.goto(second.link);
    await page.getByTestId('reset-submit').click();
    await page.getByText('パスワードは12文字以上である必要があります').waitFor();
    expect(await fieldErrors(page)).toEqual(['パスワードは12文字以上である必要があります']);
    await page.getByLabel('新しいパスワード').fill('a brand new password');
    await page.getByLabel('パスワード（確認）').fill('a brand new passworD');
    await page.getByTestId('reset-submit').click();
    await page.getByText('パスワードが一致しません').waitFor();
    expect(await fieldErrors(page)).toEqual(['パスワードが一致しません']);
    await page.getByLabel('パスワード（確認）').fill('a brand new password');
    await page.getByTestId('reset-submit').click();
    await toastText(page, 'パスワード変更完了');
    const changedAt = Date.now();
    expect(pathOf(page.url())).toBe('/reset-password');
    await page.waitForURL('**/login', { timeout: 6000 });
    expect(Date.now() - changedAt).toBeGreaterThanOrEqual(1500);

    await logIn(page, member.email, member.password);
    expect(await toastText(page, 'ログインに失敗しました')).toContain(
      'メールアドレスまたはパスワードが正しくありません',
    );
    await logIn(page, member.email, 'a brand new password');
    await page.waitForURL('**/welcome'); // this member's first login
  });

  it('a reset page without a token says 無効なリンク and goes to /request-password-reset', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/reset-password');
    expect(await toastText(page, '無効なリンク')).toContain('パスワードリセットトークンが見つかりません');
    await page.waitForURL('**/request-password-reset');
  });
});

describe('e-mail verification page', () => {
  it('an unverified login → メール認証が必要です → /verify-email with the address; resend; a bad token; a pasted link', async () => {
    const email = uniqueEmail('unverified');
    const password = 'unverified password 1';
    const registered = await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, firstName: 'Ken', lastName: 'Sato' }),
    });
    expect(registered.status).toBe(200);
    session = await openBrowser();
    const { page } = session;
    await page.goto('/login');
    await logIn(page, email, password);
    await toastText(page, 'メール認証が必要です');
    await page.waitForURL((url) => url.pathname === '/verify-email');
    expect(new URL(page.url()).searchParams.get('email')).toBe(email);
    const card = page.getByTestId('verify-email-page');
    expect(await card.getAttribute('data-state')).toBe('pending');

    const { id: firstMail } = await mailedLink(email, 'verify-email');
    await page.getByTestId('verify-resend').click();
    await toastText(page, '確認メールを再送信しました');
    const resent = await mailedLink(email, 'verify-email', new Set([firstMail]));

    // the verify button takes the e-mail's link or code: without one it cannot be pressed (it used to only fail)
    expect(await page.getByTestId('verify-submit').isDisabled()).toBe(true);

    // a bad token: the error state, with resend and back to login
    await page.goto(`/verify-email?token=not-a-real-token&email=${encodeURIComponent(email)}`);
    await page.locator('[data-testid="verify-email-page"][data-state="error"]').waitFor();
    expect(await toastText(page, 'エラー')).toContain('トークンが無効または期限切れです');
    expect(await card.textContent()).toContain('リンクが無効か、有効期限が切れている可能性があります');
    expect(await page.getByTestId('verify-resend').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'ログイン画面に戻る' }).getAttribute('href')).toBe('/login');

    // without an address, resend asks for one (checked before anything is sent), in both states
    await page.goto('/verify-email');
    expect(await card.getAttribute('data-state')).toBe('pending');
    await page.getByTestId('verify-resend-email').waitFor();
    await page.goto('/verify-email?token=another-bad-token');
    await page.locator('[data-testid="verify-email-page"][data-state="error"]').waitFor();
    await page.getByTestId('verify-resend').click();
    expect(await fieldErrors(page)).toEqual(['有効なメールアドレスを入力してください']);
    await page.getByTestId('verify-resend-email').fill(email);
    await page.getByTestId('verify-resend').click();
    await toastText(page, '確認メールを再送信しました');
    const typedResend = await mailedLink(email, 'verify-email', new Set([firstMail, resent.id]));
    // the page now names the address it sent to
    expect(new URL(page.url()).searchParams.get('email')).toBe(email);

    // the latest link, opened on another device, pasted here whole: verified
    await page.goto('/verify-email');
    await page.getByTestId('verify-code').fill(`${baseUrl()}${typedResend.link}`);
    await page.getByTestId('verify-submit').click();
    await page.locator('[data-testid="verify-email-page"][data-state="success"]').waitFor();
    expect(await page.getByTestId('verify-to-login').textContent()).toBe('ログイン画面へ');
  });
});

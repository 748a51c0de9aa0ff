// Migration of an account of the old external login, created by the operator command with a session cookie.
import { afterEach, describe, expect, it } from 'vitest';
import { createLegacyUser, fieldErrors, logIn, toastText, uniqueEmail } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('account migration', () => {
  it('shows the account, benefits and warnings; validates; confirms in a dialog; grants the 100-point bonus once', async () => {
    const email = uniqueEmail('legacy');
    const { cookie } = await createLegacyUser({ email, firstName: '太郎', lastName: '山田' });
    session = await openBrowser();
    const { page, context } = session;
    await context.addCookies([{ name: 'pc_session', value: cookie, url: baseUrl() }]);

    // settings of an external account: no password card, a way to migrate
    await page.goto('/settings');
    await page.getByTestId('settings-page').waitFor();
    expect(await page.getByTestId('settings-auth-method').textContent()).toBe('旧外部ログイン');
    expect(await page.getByTestId('password-card').count()).toBe(0);
    await page.getByRole('link', { name: '独立したアカウントに移行する' }).click();

    await page.getByTestId('migrate-account-page').waitFor();
    const current = (await page.getByTestId('migrate-current').textContent()) ?? '';
    expect(current).toContain(email);
    expect(current).toContain('山田 太郎');
    expect(current).toContain('旧外部ログイン');
    expect(await page.getByTestId('migrate-benefits').textContent()).toContain(
      '移行ボーナスとして100ポイントを付与します',
    );
    expect(await page.getByTestId('migrate-warnings').textContent()).toContain('移行は取り消せません');
    expect(await page.getByTestId('points-balance').textContent()).toBe('300 pt');

    await page.getByTestId('migrate-submit').click();
    await page.getByText('パスワードは12文字以上である必要があります').first().waitFor();
    expect(await fieldErrors(page)).toEqual([
      'パスワードは12文字以上である必要があります',
      'パスワードは12文字以上である必要があります',
    ]);
    const passwordInput = page.getByLabel('パスワード', { exact: true });
    await passwordInput.fill('legacy password 123');
    await page.getByLabel('パスワード（確認）').fill('legacy password 124');
    await page.getByRole('button', { name: 'パスワードを表示' }).first().click();
    expect(await passwordInput.getAttribute('type')).toBe('text');
    await page.getByTestId('migrate-submit').click();
    await page.getByText('パスワードが一致しません').waitFor();
    expect(await fieldErrors(page)).toEqual(['パスワードが一致しません']);

    await page.getByLabel('パスワード（確認）').fill('legacy password 123');
    await page.getByTestId('migrate-submit').click();
    const dialog = page.getByRole('dialog', { name: 'アカウントを移行しますか？' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'キャンセル' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('migrate-submit').click();
    await page.getByTestId('migrate-confirm-button').click();
    expect(await toastText(page, '移行完了')).toContain('100ポイントのボーナスが付与されました');
    await page.waitForURL((url) => url.pathname === '/');
    // billing grants the bonus on account's event, a moment after the answer: the header follows it
    await expect.poll(() => page.getByTestId('points-balance').textContent(), { timeout: 10_000 }).toBe('400 pt');

    await page.goto('/settings');
    await page.getByTestId('password-card').waitFor();
    expect(await page.getByTestId('settings-auth-method').textContent()).toContain('ローカルアカウント');

    // a local account is not migrated again
    await page.goto('/migrate-account');
    await toastText(page, 'サービス移行完了');
    await page.waitForURL((url) => url.pathname === '/');

    // the new password opens a session
    await page.goto('/api/logout');
    await page.goto('/login');
    await logIn(page, email, 'legacy password 123');
    await page.waitForURL((url) => url.pathname === '/welcome'); // its first password login
  });
});

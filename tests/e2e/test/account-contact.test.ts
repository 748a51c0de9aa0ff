// Contact form of a visitor, the login form's messages and the account screens in another language.
import { afterEach, describe, expect, it } from 'vitest';
import { fieldErrors, toastText } from './account-flows';
import { openBrowser, type Session } from './browser';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('contact and form messages', () => {
  it('a visitor sends a contact message after every validation message is shown', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/contact');
    await page.getByTestId('contact-page').waitFor();
    expect(await page.getByTestId('app-header').count()).toBe(0); // the signed-out frame
    expect(await page.getByTestId('support-email').textContent()).toMatch(/@/);
    await page.getByTestId('contact-submit').click();
    await page.getByText('お名前を入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual([
      'お名前を入力してください',
      '有効なメールアドレスを入力してください',
      '件名を入力してください',
      'メッセージは10文字以上で入力してください',
    ]);
    await page.getByLabel('お名前').fill('訪問者');
    await page.getByLabel('メールアドレス').fill('visitor@example.com');
    await page.getByLabel('件名').fill('料金について');
    await page.getByLabel('メッセージ').fill('短すぎる');
    await page.getByTestId('contact-submit').click();
    await page.getByText('メッセージは10文字以上で入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual(['メッセージは10文字以上で入力してください']);
    await page.getByLabel('メッセージ').fill('クリエイタープランの支払い方法を教えてください。');
    await page.getByTestId('contact-submit').click();
    expect(await toastText(page, '送信完了')).toContain('お問い合わせを受け付けました。ご連絡をお待ちください。');
    expect(await page.getByLabel('件名').inputValue()).toBe('');
  });

  it('the login form shows its messages, in Japanese and, after switching, in English', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    await page.getByText('パスワードを入力してください').waitFor();
    expect(await fieldErrors(page)).toEqual(['有効なメールアドレスを入力してください', 'パスワードを入力してください']);
    expect(await page.getByRole('link', { name: 'パスワードを忘れた方' }).getAttribute('href')).toBe(
      '/request-password-reset',
    );

    await page.getByTestId('language-switcher').selectOption('en');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    // the messages already shown follow the language
    expect(await fieldErrors(page)).toEqual(['Please enter a valid e-mail address', 'Please enter your password']);
    expect(await page.getByLabel('E-mail address').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    await page.getByTestId('register-submit').click();
    await page.getByText('Please enter a valid e-mail address').waitFor();
    expect(await page.getByLabel('First name').isVisible()).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});

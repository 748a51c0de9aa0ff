// The check-your-mail page (/verify-email) in jsdom with the real i18n catalogues, query client and toasts; only the
// network is replaced by an in-test server (fetch). Its verify button takes the e-mail's link or code pasted here
// (without a token it only ever failed), and resend works for the address the page knows or one typed here.
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VerifyEmailPage } from '../src/features/auth/components/verify-email-page';
import { readPastedVerification } from '../src/features/auth/model/pasted-verification';
import { json, pageHost, settle } from './render-page';

let validTokens: Set<string>;

beforeAll(async () => {
  await initI18n({ lng: 'en' });
});

const { calls, render: renderAt } = pageHost((call) => {
  if (call.path === '/api/auth/verify-email') {
    const { token } = call.body as { token: string };
    if (!validTokens.has(token)) return json({ code: 'INVALID_TOKEN', message: 'invalid' }, 400);
    validTokens.delete(token);
    return json({ message: 'Your e-mail address is verified.', email: 'taro@example.test' });
  }
  if (call.path === '/api/auth/resend-verification') return json({ message: 'sent' });
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

beforeEach(() => {
  validTokens = new Set(['tok_good-123']);
});

const render = (url: string) => renderAt(<VerifyEmailPage />, url);

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`);
const pageState = () => byTestId('verify-email-page')?.dataset.state;

async function type(id: string, value: string) {
  const input = byTestId<HTMLInputElement>(id);
  expect(input).not.toBeNull();
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setValue?.call(input, value);
    input?.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function click(id: string) {
  const el = byTestId(id);
  expect(el).not.toBeNull();
  await act(async () => el?.click());
  await settle();
}

describe('check-your-mail page', () => {
  it('offers verify only with a pasted link: nothing is sent without one, the link’s token is sent with one', async () => {
    await render('/verify-email');
    expect(pageState()).toBe('pending');
    const verify = byTestId<HTMLButtonElement>('verify-submit');
    expect(verify?.textContent).toBe('Verify');
    expect(verify?.disabled).toBe(true);
    await click('verify-submit');
    expect(calls).toEqual([]);
    expect(document.body.textContent).not.toContain('Error');

    // the whole link as the e-mail shows it, broken over two lines by a mail client
    await type('verify-code', '  http://app.test/verify-email?token=tok_good-\n123&email=taro%40example.test ');
    expect(byTestId<HTMLButtonElement>('verify-submit')?.disabled).toBe(false);
    await click('verify-submit');
    expect(calls).toEqual([{ method: 'POST', path: '/api/auth/verify-email', body: { token: 'tok_good-123' } }]);
    expect(pageState()).toBe('success');
    expect(byTestId('verify-to-login')?.getAttribute('href')).toBe('/login');
  });

  it('says, after a registration, that an address with an account gets a mail telling how to log in', async () => {
    await render('/verify-email?email=taro%40example.test');
    expect(pageState()).toBe('pending');
    expect(document.body.textContent).toContain('We sent a confirmation e-mail to taro@example.test.');
    expect(byTestId('verify-existing-hint')?.textContent).toBe(
      'If this address already has an account, the e-mail tells you how to log in instead.',
    );
  });

  it('a wrong code ends in the error state, which resends and lets another code be tried', async () => {
    await render('/verify-email?email=taro%40example.test');
    await type('verify-code', 'not-a-real-token');
    await click('verify-submit');
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/verify-email',
      body: { token: 'not-a-real-token' },
    });
    expect(pageState()).toBe('error');
    expect(document.body.textContent).toContain('The link may be invalid or expired');

    await click('verify-resend');
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/resend-verification',
      body: { email: 'taro@example.test' },
    });
    expect(document.body.textContent).toContain('Confirmation e-mail sent again');

    await click('verify-another-code');
    expect(pageState()).toBe('pending');
    await type('verify-code', 'tok_good-123');
    await click('verify-submit');
    expect(pageState()).toBe('success');
  });

  it('resends to the address the page knows', async () => {
    await render('/verify-email?email=taro%40example.test');
    expect(document.body.textContent).toContain('We sent a confirmation e-mail to taro@example.test');
    expect(byTestId('verify-resend-email')).toBeNull();
    await click('verify-resend');
    expect(calls).toEqual([
      { method: 'POST', path: '/api/auth/resend-verification', body: { email: 'taro@example.test' } },
    ]);
  });

  it('without a known address, resends to one typed here (checked first), then says where it went', async () => {
    await render('/verify-email');
    expect(byTestId('verify-resend')?.textContent).toBe('Resend confirmation e-mail');
    await type('verify-resend-email', 'not an address');
    await click('verify-resend');
    expect(calls).toEqual([]);
    expect(byTestId('verify-resend-email')?.getAttribute('aria-invalid')).toBe('true');

    await type('verify-resend-email', ' hanako@example.test ');
    await click('verify-resend');
    expect(calls).toEqual([
      { method: 'POST', path: '/api/auth/resend-verification', body: { email: 'hanako@example.test' } },
    ]);
    expect(document.body.textContent).toContain('We sent a confirmation e-mail to hanako@example.test');
    // from now on the page resends there without asking again
    expect(byTestId('verify-resend-email')).toBeNull();
    await click('verify-resend');
    expect(calls.at(-1)?.body).toEqual({ email: 'hanako@example.test' });
  });

  it('a token in the link still verifies by itself, once', async () => {
    await render('/verify-email?token=tok_good-123&email=taro%40example.test');
    expect(calls.filter((c) => c.path === '/api/auth/verify-email')).toEqual([
      { method: 'POST', path: '/api/auth/verify-email', body: { token: 'tok_good-123' } },
    ]);
    expect(pageState()).toBe('success');
  });
});

describe('what a member pastes', () => {
  it('the whole link, a part of it, or the token alone; white space inside dropped', () => {
    expect(readPastedVerification('https://pagecast.example/verify-email?token=abc_1-2&email=a%40b.test')).toEqual({
      token: 'abc_1-2',
      email: 'a@b.test',
    });
    expect(readPastedVerification('verify-email?token=abc')).toEqual({ token: 'abc', email: null });
    expect(readPastedVerification(' abc\n_def ')).toEqual({ token: 'abc_def', email: null });
    expect(readPastedVerification('   ')).toBeNull();
    expect(readPastedVerification('https://pagecast.example/verify-email?token=&email=a%40b.test')).toBeNull();
  });
});

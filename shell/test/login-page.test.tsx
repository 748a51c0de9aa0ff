// The login page (/login) in jsdom with the real i18n catalogues, query client and toasts; only the network is
// replaced by an in-test server (fetch). A sign-in the throttle refuses (429, details.retryAfterSeconds) says how
// long to wait, in the page's language and with the plural form the count needs, not a generic error.
import { initI18n } from '@pagecast/i18n';
import { MemoryRouter } from '@pagecast/router';
import { createQueryClient, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from '../src/features/auth/components/login-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** what the in-test server answers to the next sign-ins */
let answers: Array<{ status: number; body: unknown }>;
let signIns: number;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const throttled = (retryAfterSeconds: number) => ({
  status: 429,
  body: { code: 'RATE_LIMITED', message: 'リクエストが多すぎます', details: { retryAfterSeconds } },
});

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  answers = [];
  signIns = 0;
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app.test');
    if (url.pathname === '/api/auth/local-login') {
      signIns++;
      const next = answers.shift() ?? { status: 200, body: { isFirstLogin: false } };
      return json(next.body, next.status);
    }
    return json({ code: 'UNAUTHORIZED', message: 'Unauthorized' }, 401);
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

async function settle(times = 6) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

async function render(language: string) {
  const i18n = await initI18n({ lng: language });
  await i18n.changeLanguage(language);
  await act(async () => {
    root.render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  await settle();
}

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`);

async function type(id: string, value: string) {
  const input = document.getElementById(id) as HTMLInputElement | null;
  expect(input).not.toBeNull();
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setValue?.call(input, value);
    input?.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function signIn() {
  await type('login-email', 'taro@example.test');
  await type('login-password', 'a password that is long');
  const before = signIns;
  const submit = byTestId<HTMLButtonElement>('login-submit');
  await act(async () => submit?.closest('form')?.requestSubmit());
  await settle();
  expect(signIns).toBe(before + 1);
}

const waitText = () => byTestId('login-wait')?.textContent ?? null;

describe('the login page when the sign-in is throttled', () => {
  it('says how many seconds or minutes to wait, singular and plural, in English', async () => {
    await render('en');
    expect(waitText()).toBeNull();
    answers.push(throttled(1));
    await signIn();
    expect(waitText()).toBe('Too many failed attempts. Try again in 1 second.');
    answers.push(throttled(45));
    await signIn();
    expect(waitText()).toBe('Too many failed attempts. Try again in 45 seconds.');
    answers.push(throttled(60));
    await signIn();
    expect(waitText()).toBe('Too many failed attempts. Try again in 1 minute.');
    answers.push(throttled(61)); // a started minute counts whole
    await signIn();
    expect(waitText()).toBe('Too many failed attempts. Try again in 2 minutes.');
    // the server's Japanese default text is never shown
    expect(document.body.textContent).not.toContain('リクエスト');
  });

  it('words the wait in French and Italian with their plural forms, and in Japanese', async () => {
    await render('fr');
    answers.push(throttled(1));
    await signIn();
    expect(waitText()).toBe('Trop de tentatives échouées. Réessayez dans 1 seconde.');
    answers.push(throttled(900));
    await signIn();
    expect(waitText()).toBe('Trop de tentatives échouées. Réessayez dans 15 minutes.');

    await render('it');
    answers.push(throttled(120));
    await signIn();
    expect(waitText()).toBe('Troppi tentativi non riusciti. Riprova tra 2 minuti.');

    await render('ja');
    answers.push(throttled(30));
    await signIn();
    expect(waitText()).toBe('ログインの失敗が続いたため、30秒後にもう一度お試しください。');
  });

  it('clears the wait on the next attempt and shows no wait for a wrong password', async () => {
    await render('en');
    answers.push(throttled(30));
    await signIn();
    expect(waitText()).not.toBeNull();
    answers.push({ status: 401, body: { code: 'INVALID_CREDENTIALS', message: 'x' } });
    await signIn();
    expect(waitText()).toBeNull();
    expect(document.body.textContent).toContain('Login failed');
  });
});

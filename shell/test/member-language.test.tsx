// The member's language: registration sends the page's language, which account keeps as the language of
// the member's e-mails; the settings show it and change it. jsdom with the real i18n catalogues and query client;
// only the network is an in-test server (fetch). The mails themselves are account's component test's
// (services/account/test/mail-language.test.ts).
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RegisterPage } from '../src/features/auth/components/register-page';
import { SettingsPage } from '../src/features/settings/components/settings-page';
import { byTestId, click, json, pageHost } from './render-page';

let user: Record<string, unknown>;

beforeAll(async () => {
  const i18n = await initI18n({ lng: 'ja' });
  await i18n.changeLanguage('en'); // the page in English, whatever the browser says
});
afterAll(async () => {
  const i18n = await initI18n();
  await i18n.changeLanguage('ja');
});

const { calls, render } = pageHost((call) => {
  if (call.path === '/api/auth/user') return json(user);
  if (call.path === '/api/user/profile') {
    user = { ...user, ...(call.body as object) };
    return json(user);
  }
  if (call.path === '/api/auth/register') {
    return json({ message: 'ok', email: 'taro@example.test', requiresVerification: true });
  }
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

beforeEach(() => {
  user = {
    id: 'u1',
    email: 'taro@example.test',
    firstName: 'Taro',
    lastName: 'Yamada',
    profileImageUrl: null,
    points: 300,
    membershipTier: 'trial',
    authProvider: 'local',
    locale: 'en',
  };
});

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null;

async function fill(el: HTMLInputElement | HTMLSelectElement | null, value: string) {
  expect(el).not.toBeNull();
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const setValue = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  await act(async () => {
    setValue?.call(el, value);
    el?.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

describe('the member’s language', () => {
  it('registration sends the page’s language with the form', async () => {
    await render(<RegisterPage />, '/register');
    await fill(byId('register-last-name'), 'Yamada');
    await fill(byId('register-first-name'), 'Taro');
    await fill(byId('register-email'), 'taro@example.test');
    await fill(byId('register-password'), 'correct horse battery');
    await click(byTestId('register-submit'));
    expect(calls.find((c) => c.path === '/api/auth/register')).toEqual({
      method: 'POST',
      path: '/api/auth/register',
      body: {
        email: 'taro@example.test',
        firstName: 'Taro',
        lastName: 'Yamada',
        password: 'correct horse battery',
        locale: 'en',
      },
    });
  });

  it('the settings show the e-mails’ language and change it with the profile', async () => {
    await render(<SettingsPage />, '/settings');
    expect(byTestId('profile-email-language-value')?.textContent).toBe('English');
    await click(byTestId('profile-edit'));
    const select = byTestId<HTMLSelectElement>('profile-email-language');
    expect(select?.value).toBe('en');
    expect([...(select?.options ?? [])].map((o) => o.value)).toEqual(['ja', 'en', 'fr', 'it']);
    await fill(select, 'fr');
    await click(byTestId('profile-save'));
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/user/profile')?.body).toEqual({
      firstName: 'Taro',
      lastName: 'Yamada',
      profileImageUrl: '',
      locale: 'fr',
    });
    expect(byTestId('profile-email-language-value')?.textContent).toBe('Français');
  });

  it('an account stored without a language reads “not set” and is offered the page’s', async () => {
    user = { ...user, locale: null };
    await render(<SettingsPage />, '/settings');
    expect(byTestId('profile-email-language-value')?.textContent).toBe('Not set');
    await click(byTestId('profile-edit'));
    expect(byTestId<HTMLSelectElement>('profile-email-language')?.value).toBe('en');
  });
});

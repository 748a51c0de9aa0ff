// The reset request page (/request-password-reset) in jsdom with the real catalogues: the mail sent to someone whose
// address was registered again links here with `?email=`, which fills the address in.
import { initI18n } from '@pagecast/i18n';
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestPasswordResetPage } from '../src/features/auth/components/request-password-reset-page';
import { json, pageHost } from './render-page';

beforeAll(async () => {
  await initI18n({ lng: 'en' });
});

const { render } = pageHost(() => json({ ok: true }));
const emailInput = () => document.querySelector<HTMLInputElement>('#reset-request-email');

describe('password reset request page', () => {
  it('fills the address in from ?email=', async () => {
    await render(<RequestPasswordResetPage />, '/request-password-reset?email=taro%40example.test');
    expect(emailInput()?.value).toBe('taro@example.test');
  });

  it('leaves it empty without one', async () => {
    await render(<RequestPasswordResetPage />, '/request-password-reset');
    expect(emailInput()?.value).toBe('');
  });
});

// An invitation accepted by registering, in jsdom with the real pages, catalogues, query client and toasts; the
// network is an in-test account service. The whole path: the invitation's "register" → registration → the e-mail's
// verification link, opened in another tab (no sessionStorage of the first) → the first sign-in there → back on the
// invitation, not the welcome → accepted → the welcome, which was owed. Everyone else's first sign-in still
// welcomes, and a carried page that is not a path of this site is ignored.
import type { InvitationOffer } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { Route, Routes } from '@pagecast/router';
import {
  CARRIED_RETURN_PAGE_KEY,
  currentWorkspace,
  RETURN_PAGE_KEY,
  removeToast,
  setCurrentWorkspace,
} from '@pagecast/ui';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoginPage } from '../src/features/auth/components/login-page';
import { RegisterPage } from '../src/features/auth/components/register-page';
import { VerifyEmailPage } from '../src/features/auth/components/verify-email-page';
import { WorkspaceKeeper } from '../src/features/workspace/components/workspace-keeper';
import { InvitationPage } from '../src/features/workspace/components/invitation-page';
import { byTestId, type Call, click, json, pageHost, settle, text, Where } from './render-page';

const invited = 'ichiro@example.test';
const password = 'a password that is long';

/** who is signed in (the session cookie), and whether the account has signed in before */
let signedInAs: string | undefined;
let signedInBefore: Set<string>;
let i18n: Awaited<ReturnType<typeof initI18n>>;

beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

const theOffer: InvitationOffer = {
  workspaceId: 'w2',
  workspaceName: '渋谷店',
  inviter: { firstName: '花子', lastName: '佐藤' },
  email: invited,
  role: 'editor',
  language: 'ja',
  expiresAt: new Date(Date.now() + 6 * 24 * 3600_000).toISOString(),
};

const { calls, render } = pageHost((call: Call) => {
  const body = call.body as { email?: string } | undefined;
  if (call.path === '/api/auth/user') {
    return signedInAs
      ? json({ id: 'u2', email: signedInAs, hasSeenWelcome: false })
      : json({ message: 'Unauthorized' }, 401);
  }
  if (call.path === '/api/auth/register') return json({ email: body?.email, requiresVerification: true });
  if (call.path === '/api/auth/verify-email') return json({ email: invited });
  if (call.path === '/api/auth/local-login') {
    const email = body?.email ?? '';
    signedInAs = email;
    const isFirstLogin = !signedInBefore.has(email);
    signedInBefore.add(email);
    return json({ isFirstLogin });
  }
  if (call.path === '/api/invitations/tok_1' && call.method === 'GET') return json(theOffer);
  if (call.path === '/api/invitations/tok_1/accept') {
    return json({ workspace: { id: 'w2', name: '渋谷店', ownerId: 'w2', role: 'editor' } });
  }
  if (call.path === '/api/workspaces') return json({ workspaces: [] });
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

// the signed-in frame's keeper, as the app has it: it switches the calls to the workspace the address names
const app = (
  <>
    <WorkspaceKeeper />
    <Routes>
      <Route path="/invitations/:token" element={<InvitationPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="*" element={<Where />} />
    </Routes>
  </>
);

const address = () => text('address');
async function type(id: string, value: string) {
  const input = (document.getElementById(id) ?? byTestId(id)) as HTMLInputElement | null;
  expect(input).not.toBeNull();
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setValue?.call(input, value);
    input?.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function submit(testId: string) {
  await act(async () => byTestId<HTMLButtonElement>(testId)?.closest('form')?.requestSubmit());
  await settle(10);
}

/** From the invitation's link, signed out: "register", the form, and the check-your-mail page. */
async function registerFromInvitation(email: string) {
  await render(app, '/invitations/tok_1');
  await click(byTestId('invitation-register'));
  expect(byTestId('register-page')).not.toBeNull();
  await type('register-last-name', '鈴木');
  await type('register-first-name', '一郎');
  await type('register-email', email);
  await type('register-password', password);
  await submit('register-submit');
  expect(byTestId('verify-email-page')).not.toBeNull();
}

/** The mail's verification link in another tab (this tab's sessionStorage is not there), then "go to login". */
let verifications = 0;
async function verifyInAnotherTab() {
  sessionStorage.clear();
  // a token is sent once per page life (the page's guard against a remount): each test has its own
  await render(app, `/verify-email?token=tok_verify_${++verifications}`, { newTab: true });
  expect(byTestId('verify-email-page')?.dataset.state).toBe('success');
  await click(byTestId('verify-to-login'));
  expect(byTestId('login-page')).not.toBeNull();
}

async function signIn(email: string) {
  await type('login-email', email);
  await type('login-password', password);
  await submit('login-submit');
}

beforeEach(() => {
  signedInAs = undefined;
  signedInBefore = new Set();
  setCurrentWorkspace(undefined);
  sessionStorage.clear();
  localStorage.removeItem(CARRIED_RETURN_PAGE_KEY);
  act(() => removeToast());
});

for (const language of ['ja', 'fr'] as const) {
  describe(`an invitation accepted by registering (${language})`, () => {
    beforeEach(async () => {
      await i18n.changeLanguage(language);
    });

    it('the first sign-in in the verification’s tab comes back to the invitation; accepting then welcomes', async () => {
      await registerFromInvitation(invited);
      await verifyInAnotherTab();
      await signIn(invited);
      // the invitation, in the page's language, where the first sign-in used to show the welcome
      expect(byTestId('address')).toBeNull(); // no other page: not /welcome
      expect(byTestId('invitation-page')).not.toBeNull();
      expect(document.querySelector('h1')?.textContent).toBe(i18n.t('workspace.invitation.title', { name: '渋谷店' }));
      expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).toBeNull(); // used once
      await click(byTestId('invitation-accept'));
      expect(calls.filter((c) => c.path === '/api/invitations/tok_1/accept')).toHaveLength(1);
      expect(currentWorkspace()).toBe('w2');
      expect(address()).toBe('/welcome?w=w2');
    });

    it('the same tab (the mail’s code pasted there) comes back too, once', async () => {
      await registerFromInvitation(invited);
      await type('verify-code', `tok_pasted_${++verifications}`);
      await submit('verify-submit');
      expect(byTestId('verify-email-page')?.dataset.state).toBe('success');
      await click(byTestId('verify-to-login'));
      await signIn(invited);
      expect(byTestId('invitation-page')).not.toBeNull();
      expect(sessionStorage.getItem(RETURN_PAGE_KEY)).toBeNull();
      expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).toBeNull();
    });

    it('another address’s first sign-in still welcomes, and the invited one keeps its way back', async () => {
      await registerFromInvitation(invited);
      await verifyInAnotherTab();
      await signIn('someone.else@example.test');
      expect(address()).toBe('/welcome');
      expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).not.toBeNull();
    });

    it('a first sign-in with nothing carried welcomes; a later one from the invitation comes back without it', async () => {
      await render(app, '/login');
      await signIn(invited);
      expect(address()).toBe('/welcome');
      signedInAs = undefined;
      await render(app, '/invitations/tok_1', { newTab: true });
      await click(byTestId('invitation-login'));
      await signIn(invited);
      expect(byTestId('invitation-page')).not.toBeNull();
      await click(byTestId('invitation-accept'));
      expect(address()).toBe('/?w=w2'); // no welcome owed
    });

    it('ignores a carried page that is an absolute, protocol-relative or backslashed address', async () => {
      for (const path of [
        'https://evil.example/',
        '//evil.example',
        '//evil.example/invitations/x',
        '/\\evil.example',
      ]) {
        signedInBefore.clear();
        localStorage.setItem(
          CARRIED_RETURN_PAGE_KEY,
          JSON.stringify({ email: invited, path, until: Date.now() + 60_000 }),
        );
        await render(app, '/login', { newTab: true });
        await signIn(invited);
        expect(address()).toBe('/welcome');
        localStorage.setItem(
          CARRIED_RETURN_PAGE_KEY,
          JSON.stringify({ email: invited, path, until: Date.now() + 60_000 }),
        );
        sessionStorage.setItem(RETURN_PAGE_KEY, path);
        await render(app, '/login', { newTab: true });
        await signIn(invited); // not the first: the remembered page, were it allowed
        expect(address()).toBe('/');
      }
    });
  });
}

// The invitation page (/invitations/:token) in jsdom with the real catalogues, query client and toasts; the
// network is an in-test account service.
import type { InvitationOffer } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { Route, Routes } from '@pagecast/router';
import { currentWorkspace, RETURN_PAGE_KEY, removeToast, setCurrentWorkspace } from '@pagecast/ui';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceKeeper } from '../src/features/workspace/components/workspace-keeper';
import { InvitationPage } from '../src/features/workspace/components/invitation-page';
import { byTestId, type Call, click, json, pageHost, text, Where } from './render-page';

let signedIn: boolean;
let offer: Response | undefined;
let acceptAnswer: () => Response;
let i18n: Awaited<ReturnType<typeof initI18n>>;

beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

const theOffer: InvitationOffer = {
  workspaceId: 'w2',
  workspaceName: '渋谷店',
  inviter: { firstName: '花子', lastName: '佐藤' },
  email: 'ichiro@example.test',
  role: 'publisher',
  language: 'ja',
  expiresAt: '2026-12-13T03:00:00.000Z',
};

const { calls, render } = pageHost((call: Call) => {
  if (call.path === '/api/auth/user') {
    return signedIn ? json({ id: 'u2', email: 'ichiro@example.test' }) : json({ message: 'Unauthorized' }, 401);
  }
  if (call.path === '/api/invitations/tok_1' && call.method === 'GET') return offer ?? json(theOffer);
  if (call.path === '/api/invitations/tok_1/accept') return acceptAnswer();
  if (call.path === '/api/workspaces') return json({ workspaces: [] });
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

// the signed-in frame's keeper, as the app has it: it switches the calls to the workspace the address names
const page = (
  <>
    <WorkspaceKeeper />
    <Routes>
      <Route path="/invitations/:token" element={<InvitationPage />} />
      <Route path="*" element={<Where />} />
    </Routes>
  </>
);

beforeEach(async () => {
  signedIn = true;
  offer = undefined;
  acceptAnswer = () => json({ workspace: { id: 'w2', name: '渋谷店', ownerId: 'w2', role: 'publisher' } });
  setCurrentWorkspace(undefined);
  sessionStorage.clear();
  act(() => removeToast());
  await i18n.changeLanguage('ja');
});

describe('the invitation page in Japanese', () => {
  it('shows the workspace, the inviter, the role and the expiry; accepting switches to the workspace', async () => {
    await render(page, '/invitations/tok_1');
    expect(document.querySelector('h1')?.textContent).toBe('「渋谷店」への招待');
    expect(text('invitation-inviter')).toBe('佐藤 花子');
    expect(text('invitation-role')).toBe('承認者');
    expect(text('invitation-expires')).toContain('2026/12/13');
    await click(byTestId('invitation-accept'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/invitations/tok_1/accept']);
    expect(currentWorkspace()).toBe('w2');
    expect(text('address')).toBe('/?w=w2');
    expect(byTestId('toast')?.textContent).toContain('「渋谷店」に参加しました');
  });

  it('says why an acceptance is refused (another address, already a member)', async () => {
    acceptAnswer = () => json({ code: 'INVITATION_EMAIL_MISMATCH', message: 'mismatch' }, 403);
    await render(page, '/invitations/tok_1');
    await click(byTestId('invitation-accept'));
    expect(text('invitation-accept-error')).toBe(
      'この招待は別のメールアドレス宛てです。そのアドレスでログインしてください',
    );
    expect(currentWorkspace()).toBeUndefined();
    acceptAnswer = () => json({ code: 'ALREADY_A_MEMBER', message: 'already' }, 409);
    await click(byTestId('invitation-accept'));
    expect(text('invitation-accept-error')).toBe('この人はすでにこのワークスペースのメンバーです');
  });

  it('says an expired or unknown invitation in words', async () => {
    offer = json({ code: 'INVITATION_EXPIRED', message: 'expired' }, 410);
    await render(page, '/invitations/tok_1');
    expect(text('invitation-error')).toBe('この招待の期限が切れています。招待した人に再送を依頼してください');
    expect(byTestId('invitation-accept')).toBeNull();
  });
});

describe('the invitation page in French', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('fr');
  });

  it('signed out: log in or register, and come back here afterwards', async () => {
    signedIn = false;
    await render(page, '/invitations/tok_1');
    expect(document.querySelector('h1')?.textContent).toBe('Invitation à «\u202f渋谷店\u202f»');
    expect(text('invitation-role')).toBe('Approbateur');
    expect(text('invitation-page')).toContain('connectez-vous avec ichiro@example.test');
    expect(byTestId('invitation-accept')).toBeNull();
    expect(text('invitation-register')).toBe('S’inscrire');
    await click(byTestId('invitation-login'));
    expect(text('address')).toBe('/login');
    expect(sessionStorage.getItem(RETURN_PAGE_KEY)).toBe('/invitations/tok_1');
  });

  it('says an unknown invitation in French', async () => {
    offer = json({ code: 'INVITATION_NOT_FOUND', message: 'gone' }, 404);
    await render(page, '/invitations/tok_1');
    expect(text('invitation-error')).toBe(i18n.t('errors.INVITATION_NOT_FOUND'));
    expect(text('invitation-error')).not.toBe('gone');
  });
});

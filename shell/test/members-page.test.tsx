// The members page (/workspace/members) in jsdom with the real catalogues, query client and toasts; the network is
// an in-test account service holding one workspace's members and invitations.
import type { WorkspaceInvitation, WorkspaceMember, WorkspaceSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { currentWorkspace, removeToast, setCurrentWorkspace } from '@pagecast/ui';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MembersPage } from '../src/features/workspace/components/members-page';
import { byTestId, type Call, click, json, pageHost, settle, text } from './render-page';

let workspaces: WorkspaceSummary[];
let members: WorkspaceMember[];
let invitations: WorkspaceInvitation[];
let refuse: ((call: Call) => Response | undefined) | undefined;
let i18n: Awaited<ReturnType<typeof initI18n>>;

beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

const member = (
  userId: string,
  role: WorkspaceMember['role'],
  lastName: string,
  firstName: string,
): WorkspaceMember => ({
  userId,
  email: `${userId}@example.test`,
  firstName,
  lastName,
  role,
  addedAt: '2026-12-01T00:00:00.000Z',
});

const { calls, sent, render } = pageHost((call) => {
  const refused = refuse?.(call);
  if (refused) return refused;
  if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'u1@example.test' });
  if (call.path === '/api/workspaces') return json({ workspaces });
  const settings = /^\/api\/workspaces\/([^/]+)\/settings$/.exec(call.path);
  if (settings && call.method === 'PUT') {
    const { approvalRequired } = call.body as { approvalRequired: boolean };
    workspaces = workspaces.map((w) => (w.id === settings[1] ? { ...w, approvalRequired } : w));
    return json(workspaces.find((w) => w.id === settings[1]));
  }
  const ws = /^\/api\/workspaces\/([^/]+)\/(members|invitations)(?:\/([^/]+))?$/.exec(call.path);
  if (ws && call.method === 'GET' && ws[2] === 'members') return json({ members });
  if (ws && call.method === 'GET' && ws[2] === 'invitations') return json({ invitations });
  if (ws && call.method === 'PATCH') {
    const row = members.find((m) => m.userId === ws[3]);
    if (!row) return json({ code: 'NOT_FOUND', message: 'no' }, 404);
    row.role = (call.body as { role: WorkspaceMember['role'] }).role;
    return json(row);
  }
  if (ws && call.method === 'DELETE' && ws[2] === 'members') {
    members = members.filter((m) => m.userId !== ws[3]);
    return json({ ok: true });
  }
  if (ws && call.method === 'DELETE') {
    invitations = invitations.filter((i) => i.id !== ws[3]);
    return json({ ok: true });
  }
  if (ws && call.method === 'POST') {
    const body = call.body as { email: string; role: 'editor'; language: 'ja' };
    const made: WorkspaceInvitation = {
      id: `inv${invitations.length + 1}`,
      workspaceId: ws[1] ?? '',
      invitedBy: 'u1',
      createdAt: '2026-12-06T00:00:00.000Z',
      expiresAt: '2026-12-13T00:00:00.000Z',
      ...body,
    };
    invitations = [...invitations, made];
    return json(made);
  }
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

async function choose(id: string, value: string) {
  const select = byTestId<HTMLSelectElement>(id);
  expect(select).not.toBeNull();
  await act(async () => {
    if (!select) return;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle();
}
async function type(id: string, value: string) {
  const input = byTestId<HTMLInputElement>(id);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setValue?.call(input, value);
    input?.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function submitInvite() {
  await act(async () => byTestId('invite-submit')?.closest('form')?.requestSubmit());
  await settle();
}
const toastTitle = () => byTestId('toast')?.querySelector('.pc-toast__title')?.textContent ?? '';

beforeEach(async () => {
  workspaces = [{ id: 'u1', name: '佐藤商店', ownerId: 'u1', role: 'owner', approvalRequired: false }];
  members = [member('u1', 'owner', '佐藤', '花子'), member('u2', 'editor', '鈴木', '一郎')];
  invitations = [
    {
      id: 'inv0',
      workspaceId: 'u1',
      email: 'guard@example.test',
      role: 'broadcaster',
      language: 'ja',
      invitedBy: 'u1',
      createdAt: '2026-12-01T00:00:00.000Z',
      expiresAt: '2026-12-08T00:00:00.000Z',
    },
  ];
  refuse = undefined;
  setCurrentWorkspace(undefined);
  act(() => removeToast());
  await i18n.changeLanguage('ja');
});

describe('the members page of the owner (Japanese)', () => {
  it('lists members with their roles and pending invitations with their expiry', async () => {
    await render(<MembersPage />, '/workspace/members');
    expect(text('members-page')).toContain('佐藤商店・あなたの役割：所有者');
    expect(text('member-u1')).toContain('佐藤 花子');
    expect(text('member-u1')).toContain('所有者');
    // the owner's row has no controls; another member's has a role choice and a remove button
    expect(byTestId('member-role-u1')).toBeNull();
    expect(byTestId<HTMLSelectElement>('member-role-u2')?.value).toBe('editor');
    expect(text('invitation-inv0')).toContain('guard@example.test');
    expect(text('invitation-inv0')).toContain('緊急放送担当・有効期限：2026/12/08');
    expect(byTestId('leave-card')).toBeNull();
  });

  it('invites by e-mail with the role and the mail’s language', async () => {
    await render(<MembersPage />, '/workspace/members');
    await type('invite-email', 'new@example.test');
    await choose('invite-role', 'publisher');
    await choose('invite-language', 'fr');
    await submitInvite();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/workspaces/u1/invitations',
        body: { email: 'new@example.test', role: 'publisher', language: 'fr' },
      },
    ]);
    expect(toastTitle()).toBe('new@example.test に招待を送りました');
    expect(text('invitations-card')).toContain('new@example.test');
  });

  it('says the server’s refusal in words, and a bad address before asking', async () => {
    await render(<MembersPage />, '/workspace/members');
    await type('invite-email', 'not an address');
    await submitInvite();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(document.getElementById('invite-email')?.getAttribute('aria-invalid')).toBe('true');

    refuse = (call) =>
      call.method === 'POST' ? json({ code: 'ALREADY_A_MEMBER', message: 'already a member' }, 409) : undefined;
    await type('invite-email', 'u2@example.test');
    await submitInvite();
    expect(text('invite-error')).toBe('この人はすでにこのワークスペースのメンバーです');
  });

  it('changes a member’s role', async () => {
    await render(<MembersPage />, '/workspace/members');
    await choose('member-role-u2', 'viewer');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      { method: 'PATCH', path: '/api/workspaces/u1/members/u2', body: { role: 'viewer' } },
    ]);
    expect(toastTitle()).toBe('鈴木 一郎さんの役割を変更しました');
    expect(byTestId<HTMLSelectElement>('member-role-u2')?.value).toBe('viewer');
  });

  it('removes a member after the confirmation', async () => {
    await render(<MembersPage />, '/workspace/members');
    await click(byTestId('member-remove-u2'));
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain(
      '鈴木 一郎さんはこのワークスペースを利用できなくなります',
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await click(byTestId('member-remove-confirm'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/workspaces/u1/members/u2']);
    expect(byTestId('member-u2')).toBeNull();
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });
});

describe('the members page of a viewer (French)', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('fr');
    workspaces = [
      { id: 'u1', name: 'Moi', ownerId: 'u1', role: 'owner', approvalRequired: false },
      { id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'viewer', approvalRequired: false },
    ];
    members = [member('w9', 'owner', 'Durand', 'Claire'), member('u1', 'viewer', 'Sato', 'Hanako')];
    setCurrentWorkspace('w9');
  });

  it('reads the members, without the controls a viewer lacks, in the workspace it acts in', async () => {
    await render(<MembersPage />, '/workspace/members?w=w9');
    expect(text('members-page')).toContain('Mairie de Lyon · votre rôle\u202f: Lecteur');
    expect(text('member-w9')).toContain('Claire Durand');
    expect(text('member-w9')).toContain('Propriétaire');
    expect(document.querySelector('select')).toBeNull();
    expect(byTestId('invite-card')).toBeNull();
    expect(byTestId('invitations-card')).toBeNull();
    expect(sent.find((s) => s.path === '/api/workspaces/w9/members')?.headers['x-pagecast-workspace']).toBe('w9');
  });

  it('leaves the workspace and returns to the person’s own', async () => {
    await render(<MembersPage />, '/workspace/members?w=w9');
    await click(byTestId('leave-open'));
    await click(byTestId('leave-confirm'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/workspaces/w9/members/u1']);
    expect(currentWorkspace()).toBeUndefined();
    expect(toastTitle()).toBe('Vous avez quitté «\u202fMairie de Lyon\u202f»');
  });

  it('says a refused role change in French', async () => {
    workspaces = [{ id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'admin', approvalRequired: false }];
    members = [member('w9', 'owner', 'Durand', 'Claire'), member('u7', 'editor', 'Rossi', 'Marco')];
    refuse = (call) =>
      call.method === 'PATCH' ? json({ code: 'FORBIDDEN_ROLE', message: 'forbidden' }, 403) : undefined;
    await render(<MembersPage />, '/workspace/members?w=w9');
    await choose('member-role-u7', 'admin');
    expect(toastTitle()).toBe('Le rôle n’a pas pu être modifié');
    expect(byTestId('toast')?.textContent).toContain(i18n.t('errors.FORBIDDEN_ROLE'));
  });
});

describe('the approval setting', () => {
  const switchEl = () => byTestId<HTMLInputElement>('approval-switch');

  it('is turned on by the owner: the setting is saved, the switch and its words say so, the list is read again (Japanese)', async () => {
    await render(<MembersPage />, '/workspace/members');
    expect(text('approval-card')).toContain('編集者による再生内容の変更に承認を必要とする');
    expect(switchEl()?.checked).toBe(false);
    expect(switchEl()?.getAttribute('role')).toBe('switch');
    expect(text('approval-state')).toBe('オフ：編集者の変更はすぐに反映されます。');
    const listReads = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/workspaces').length;
    const before = listReads();
    await click(switchEl());
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/api/workspaces/u1/settings', body: { approvalRequired: true } },
    ]);
    expect(switchEl()?.checked).toBe(true);
    expect(text('approval-state')).toBe('オン：編集者の変更は承認待ちになります。');
    expect(toastTitle()).toBe('承認が必要になりました');
    expect(listReads()).toBeGreaterThan(before);
  });

  it('is not offered to a role without the workspace’s settings (French editor)', async () => {
    await i18n.changeLanguage('fr');
    workspaces = [{ id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'editor', approvalRequired: true }];
    setCurrentWorkspace('w9');
    await render(<MembersPage />, '/workspace/members?w=w9');
    expect(text('members-page')).toContain('Mairie de Lyon');
    expect(byTestId('approval-card')).toBeNull();
  });

  it('says a refusal in French and keeps the switch as it was (admin)', async () => {
    await i18n.changeLanguage('fr');
    workspaces = [{ id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'admin', approvalRequired: true }];
    setCurrentWorkspace('w9');
    refuse = (call) =>
      call.method === 'PUT' ? json({ code: 'FORBIDDEN_ROLE', message: 'forbidden' }, 403) : undefined;
    await render(<MembersPage />, '/workspace/members?w=w9');
    expect(text('approval-card')).toContain(
      'Les modifications des éditeurs sur ce que diffusent les écrans doivent être approuvées',
    );
    expect(switchEl()?.checked).toBe(true);
    await click(switchEl());
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ approvalRequired: false }]);
    expect(toastTitle()).toBe('Impossible de modifier le réglage');
    expect(byTestId('toast')?.textContent).toContain(i18n.t('errors.FORBIDDEN_ROLE'));
    expect(switchEl()?.checked).toBe(true);
  });
});

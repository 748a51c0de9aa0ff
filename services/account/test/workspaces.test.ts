// Workspaces, members and invitations against the real servers: every route's success and each error code, the
// invitation mail in the invitee's language, the gateways' key-value copy of the memberships and the events.
import {
  INVITATION_TTL_MS,
  type Locale,
  subjects,
  WORKSPACE_MEMBERS_BUCKET,
  type WorkspaceRole,
} from '@pagecast/contracts';
import { type KV, openKeyValue } from '@pagecast/service-kit';
import { waitFor } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../src/config';
import { createServer } from '../src/server';
import {
  call,
  collectEvents,
  env,
  type Harness,
  join,
  type Mail,
  mailsTo,
  PUBLIC_URL,
  type Person,
  person,
  startHarness,
  uniqueEmail,
  waitForMail,
} from './harness';

let h: Harness;
let kv: KV;
beforeAll(async () => {
  h = await startHarness('account_workspaces');
  kv = await openKeyValue(h.nats, WORKSPACE_MEMBERS_BUCKET, { ttlMs: 0 });
});
afterAll(async () => {
  await h?.close();
});

function invitationToken(mail: Mail): string {
  const match = /\/invitations\/([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no invitation link in mail: ${mail.text}`);
  return match[1];
}

/** Invites `email` into `owner`'s workspace and returns the invitation, the mail and its token. */
async function invite(
  by: Person,
  email: string,
  role: Exclude<WorkspaceRole, 'owner'>,
  opts: { workspaceId?: string; language?: Locale } = {},
) {
  const count = (await mailsTo(email)).length;
  const res = await call(h, 'POST', `/api/workspaces/${opts.workspaceId ?? by.userId}/invitations`, {
    identity: by.identity,
    body: { email, role, ...(opts.language ? { language: opts.language } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const mail = await waitForMail(email, count + 1);
  return { invitation: res.body, mail, token: invitationToken(mail) };
}

const kvRole = async (workspaceId: string, userId: string) => {
  const e = await kv.get(`${workspaceId}.${userId}`);
  return e && e.operation === 'PUT' ? (e.json<{ role: string; v: number }>() as { role: string; v: number }) : null;
};

const expectError = (res: { status: number; body: { code?: string } }, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
};

describe('each account owns a workspace', () => {
  it('a new account lists its own workspace, named after its owner, with the owner as its only member', async () => {
    const owner = await person(h, 'ws-own');
    const list = await call(h, 'GET', '/api/workspaces', { identity: owner.identity });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      workspaces: [
        { id: owner.userId, name: '佐藤 花子', ownerId: owner.userId, role: 'owner', approvalRequired: false },
      ],
    });
    const members = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: owner.identity });
    expect(members.status).toBe(200);
    expect(members.body.members).toEqual([
      expect.objectContaining({ userId: owner.userId, email: owner.email, role: 'owner', firstName: '花子' }),
    ]);
    // the owner is no guest: nothing in the gateways' bucket
    expect(await kvRole(owner.userId, owner.userId)).toBeNull();
  });

  it('a stranger reading members is refused NOT_A_MEMBER; without a session 401', async () => {
    const owner = await person(h, 'ws-own2');
    const stranger = await person(h, 'ws-stranger');
    const res = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: stranger.identity });
    expectError(res, 403, 'NOT_A_MEMBER');
    expect((await call(h, 'GET', '/api/workspaces')).status).toBe(401);
  });
});

describe('invitations', () => {
  it('the invitee with an account gets the mail in their language (fr), sees the offer, accepts and is a member', async () => {
    const owner = await person(h, 'ws-inviter', { locale: 'ja', firstName: '太郎', lastName: '山田' });
    const guest = await person(h, 'ws-guest-fr', { locale: 'fr', firstName: 'Claire', lastName: 'Martin' });
    const added = collectEvents(h, subjects.memberAdded);
    const { invitation, mail, token } = await invite(owner, guest.email, 'editor');
    expect(invitation).toMatchObject({ workspaceId: owner.userId, email: guest.email, role: 'editor', language: 'fr' });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(INVITATION_TTL_MS);
    // the inviter's name in French order (given name first), the workspace's as stored
    expect(mail.subject).toBe('[Pagecast] 太郎 山田 vous invite dans « 山田 太郎 »');
    expect(mail.text).toContain('Bonjour Claire Martin,');
    expect(mail.text).toContain('avec le rôle « Éditeur »');
    expect(mail.text).toContain('Cette invitation est valable 7 jours.');
    expect(mail.text).toContain(`${PUBLIC_URL}/invitations/${token}`);
    expect(mail.html).toContain('Voir l’invitation');

    const offer = await call(h, 'GET', `/api/invitations/${token}`);
    expect(offer.status).toBe(200);
    expect(offer.body).toEqual({
      workspaceId: owner.userId,
      workspaceName: '山田 太郎',
      inviter: { firstName: '太郎', lastName: '山田' },
      email: guest.email,
      role: 'editor',
      language: 'fr',
      expiresAt: invitation.expiresAt,
    });

    const accepted = await call(h, 'POST', `/api/invitations/${token}/accept`, { identity: guest.identity });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      workspace: {
        id: owner.userId,
        name: '山田 太郎',
        ownerId: owner.userId,
        role: 'editor',
        approvalRequired: false,
      },
    });
    expect(await kvRole(owner.userId, guest.userId)).toEqual({ role: 'editor', v: 1 });
    const [event] = await added.waitFor((e) => e.data.userId === guest.userId);
    expect(event?.data).toMatchObject({
      workspaceId: owner.userId,
      userId: guest.userId,
      role: 'editor',
      addedBy: owner.userId,
      invitationId: invitation.id,
    });
    added.stop();

    const mine = await call(h, 'GET', '/api/workspaces', { identity: guest.identity });
    expect(mine.body.workspaces).toEqual([
      { id: guest.userId, name: 'Claire Martin', ownerId: guest.userId, role: 'owner', approvalRequired: false },
      { id: owner.userId, name: '山田 太郎', ownerId: owner.userId, role: 'editor', approvalRequired: false },
    ]);
    const members = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: guest.identity });
    expect(members.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [guest.userId, 'editor'],
    ]);
    // used: the link offers nothing more, and accepting again finds nothing
    expectError(await call(h, 'GET', `/api/invitations/${token}`), 404, 'INVITATION_NOT_FOUND');
    expectError(
      await call(h, 'POST', `/api/invitations/${token}/accept`, { identity: guest.identity }),
      404,
      'INVITATION_NOT_FOUND',
    );
  });

  it('an address without an account gets the inviter’s language (ja); a chosen language wins (it)', async () => {
    const owner = await person(h, 'ws-inviter-ja', { locale: 'ja', firstName: '太郎', lastName: '山田' });
    const nobody = uniqueEmail('ws-nobody');
    const ja = await invite(owner, nobody, 'viewer');
    expect(ja.invitation.language).toBe('ja');
    expect(ja.mail.subject).toBe('【Pagecast】山田 太郎さんから「山田 太郎」への招待が届いています');
    expect(ja.mail.text).toContain(`${nobody} 様`);
    expect(ja.mail.text).toContain('「閲覧者」として招待しました');
    expect(ja.mail.text).toContain('この招待の有効期限は7日間です。');
    const it_ = await invite(owner, uniqueEmail('ws-nobody-it'), 'broadcaster', { language: 'it' });
    expect(it_.invitation.language).toBe('it');
    expect(it_.mail.subject).toBe('[Pagecast] 太郎 山田 ti ha invitato in «山田 太郎»');
    expect(it_.mail.text).toContain('con il ruolo «Operatore di emergenza»');
  });

  it('accepting by registering: register with the invited address, verify, sign in, then the link still works', async () => {
    const owner = await person(h, 'ws-inviter-reg');
    const email = uniqueEmail('ws-newcomer');
    const { token } = await invite(owner, email, 'publisher', { language: 'en' });
    const newcomer = await person(h, 'ws-newcomer', { email, locale: 'en', firstName: 'Ann', lastName: 'Lee' });
    const res = await call(h, 'POST', `/api/invitations/${token}/accept`, { identity: newcomer.identity });
    expect(res.status).toBe(200);
    expect(res.body.workspace).toMatchObject({ id: owner.userId, role: 'publisher' });
  });

  it('refuses another signed-in person (INVITATION_EMAIL_MISMATCH), an expired link (INVITATION_EXPIRED) and a second invitation of a member (ALREADY_A_MEMBER)', async () => {
    const owner = await person(h, 'ws-inviter-err');
    const guest = await person(h, 'ws-guest-err');
    const other = await person(h, 'ws-other-err');
    const first = await invite(owner, guest.email, 'viewer');
    const second = await invite(owner, guest.email, 'editor');
    const expired = await invite(owner, guest.email, 'admin');

    expectError(
      await call(h, 'POST', `/api/invitations/${first.token}/accept`, { identity: other.identity }),
      403,
      'INVITATION_EMAIL_MISMATCH',
    );
    // past its 7 days (the stored expiry moved back: the service's clock is the real one)
    await h.server.context.conn
      .collection('workspace_invitations')
      .updateOne({ _id: expired.invitation.id } as never, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await call(h, 'GET', `/api/invitations/${expired.token}`), 410, 'INVITATION_EXPIRED');
    expectError(
      await call(h, 'POST', `/api/invitations/${expired.token}/accept`, { identity: guest.identity }),
      410,
      'INVITATION_EXPIRED',
    );

    expect((await call(h, 'POST', `/api/invitations/${first.token}/accept`, { identity: guest.identity })).status).toBe(
      200,
    );
    expectError(
      await call(h, 'POST', `/api/invitations/${second.token}/accept`, { identity: guest.identity }),
      409,
      'ALREADY_A_MEMBER',
    );
    // the refused acceptances changed nothing: still a viewer, one membership
    const members = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: owner.identity });
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'viewer']);
    expect(await kvRole(owner.userId, guest.userId)).toEqual({ role: 'viewer', v: 1 });
    // an unknown token
    expectError(await call(h, 'GET', '/api/invitations/no-such-token'), 404, 'INVITATION_NOT_FOUND');
    expectError(
      await call(h, 'POST', '/api/invitations/no-such-token/accept', { identity: guest.identity }),
      404,
      'INVITATION_NOT_FOUND',
    );
    // accepting needs a session
    expect((await call(h, 'POST', `/api/invitations/${second.token}/accept`)).status).toBe(401);
  });

  it('only the owner and admins invite: a stranger NOT_A_MEMBER, an editor FORBIDDEN_ROLE, a member ALREADY_A_MEMBER, owner no role', async () => {
    const owner = await person(h, 'ws-inv-rights');
    const editor = await person(h, 'ws-inv-editor');
    const admin = await person(h, 'ws-inv-admin');
    const stranger = await person(h, 'ws-inv-stranger');
    await join(h, owner, editor, 'editor');
    await join(h, owner, admin, 'admin');
    const path = `/api/workspaces/${owner.userId}/invitations`;
    const body = { email: uniqueEmail('ws-target'), role: 'viewer' };
    expectError(await call(h, 'POST', path, { identity: stranger.identity, body }), 403, 'NOT_A_MEMBER');
    expectError(await call(h, 'POST', path, { identity: editor.identity, body }), 403, 'FORBIDDEN_ROLE');
    expectError(
      await call(h, 'POST', path, { identity: admin.identity, body: { ...body, email: editor.email } }),
      409,
      'ALREADY_A_MEMBER',
    );
    expectError(
      await call(h, 'POST', path, { identity: admin.identity, body: { ...body, email: owner.email } }),
      409,
      'ALREADY_A_MEMBER',
    );
    const asOwner = await call(h, 'POST', path, { identity: admin.identity, body: { ...body, role: 'owner' } });
    expectError(asOwner, 400, 'VALIDATION');
    expect(JSON.stringify(asOwner.body.issues)).toContain('validation.roleInvalid');
    // none of the refused calls stored an invitation
    const pending = await call(h, 'GET', path, { identity: admin.identity });
    expect(pending.body.invitations).toEqual([]);
    // an admin may invite
    expect((await call(h, 'POST', path, { identity: admin.identity, body })).status).toBe(200);
  });

  it('lists the pending invitations and revokes one (owner and admins only)', async () => {
    const owner = await person(h, 'ws-pending');
    const viewer = await person(h, 'ws-pending-viewer');
    await join(h, owner, viewer, 'viewer');
    const a = await invite(owner, uniqueEmail('ws-pa'), 'editor');
    const b = await invite(owner, uniqueEmail('ws-pb'), 'viewer');
    const path = `/api/workspaces/${owner.userId}/invitations`;
    const list = await call(h, 'GET', path, { identity: owner.identity });
    expect(list.status).toBe(200);
    expect(list.body.invitations.map((i: { id: string }) => i.id)).toEqual([b.invitation.id, a.invitation.id]);
    expect(JSON.stringify(list.body)).not.toContain(a.token);
    expectError(await call(h, 'GET', path, { identity: viewer.identity }), 403, 'FORBIDDEN_ROLE');
    expectError(
      await call(h, 'DELETE', `${path}/${a.invitation.id}`, { identity: viewer.identity }),
      403,
      'FORBIDDEN_ROLE',
    );

    const revoked = await call(h, 'DELETE', `${path}/${a.invitation.id}`, { identity: owner.identity });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ ok: true });
    expectError(await call(h, 'GET', `/api/invitations/${a.token}`), 404, 'INVITATION_NOT_FOUND');
    expectError(
      await call(h, 'DELETE', `${path}/${a.invitation.id}`, { identity: owner.identity }),
      404,
      'INVITATION_NOT_FOUND',
    );
    expectError(
      await call(h, 'DELETE', `${path}/no-such-id`, { identity: owner.identity }),
      404,
      'INVITATION_NOT_FOUND',
    );
    const after = await call(h, 'GET', path, { identity: owner.identity });
    expect(after.body.invitations.map((i: { id: string }) => i.id)).toEqual([b.invitation.id]);
  });
});

describe('members', () => {
  it('the owner changes a role: the bucket and the event follow; the owner row is fixed; others refused', async () => {
    const owner = await person(h, 'ws-role-owner');
    const member = await person(h, 'ws-role-member');
    const editor = await person(h, 'ws-role-editor');
    const stranger = await person(h, 'ws-role-stranger');
    await join(h, owner, member, 'viewer');
    await join(h, owner, editor, 'editor');
    const changed = collectEvents(h, subjects.memberChanged);
    const path = `/api/workspaces/${owner.userId}/members/${member.userId}`;
    const res = await call(h, 'PATCH', path, { identity: owner.identity, body: { role: 'publisher' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: member.userId, email: member.email, role: 'publisher' });
    expect(await kvRole(owner.userId, member.userId)).toEqual({ role: 'publisher', v: 1 });
    const [event] = await changed.waitFor((e) => e.data.userId === member.userId);
    expect(event?.data).toMatchObject({ role: 'publisher', previousRole: 'viewer', changedBy: owner.userId });
    changed.stop();

    const ownerPath = `/api/workspaces/${owner.userId}/members/${owner.userId}`;
    expectError(
      await call(h, 'PATCH', ownerPath, { identity: owner.identity, body: { role: 'admin' } }),
      409,
      'OWNER_IS_FIXED',
    );
    expectError(
      await call(h, 'PATCH', path, { identity: editor.identity, body: { role: 'admin' } }),
      403,
      'FORBIDDEN_ROLE',
    );
    expectError(
      await call(h, 'PATCH', path, { identity: stranger.identity, body: { role: 'admin' } }),
      403,
      'NOT_A_MEMBER',
    );
    expectError(
      await call(h, 'PATCH', `/api/workspaces/${owner.userId}/members/${stranger.userId}`, {
        identity: owner.identity,
        body: { role: 'admin' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await call(h, 'PATCH', path, { identity: owner.identity, body: { role: 'owner' } }), 400, 'VALIDATION');
    // nothing of the refused calls stuck
    expect(await kvRole(owner.userId, member.userId)).toEqual({ role: 'publisher', v: 1 });
    const members = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: owner.identity });
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'publisher', 'editor']);
  });

  it('an admin removes a member; a member leaves; the owner stays; others are refused', async () => {
    const owner = await person(h, 'ws-rm-owner');
    const admin = await person(h, 'ws-rm-admin');
    const viewer = await person(h, 'ws-rm-viewer');
    const leaver = await person(h, 'ws-rm-leaver');
    const stranger = await person(h, 'ws-rm-stranger');
    await join(h, owner, admin, 'admin');
    await join(h, owner, viewer, 'viewer');
    await join(h, owner, leaver, 'editor');
    const removed = collectEvents(h, subjects.memberRemoved);
    const base = `/api/workspaces/${owner.userId}/members`;

    expectError(
      await call(h, 'DELETE', `${base}/${leaver.userId}`, { identity: viewer.identity }),
      403,
      'FORBIDDEN_ROLE',
    );
    expectError(
      await call(h, 'DELETE', `${base}/${viewer.userId}`, { identity: stranger.identity }),
      403,
      'NOT_A_MEMBER',
    );
    expectError(
      await call(h, 'DELETE', `${base}/${owner.userId}`, { identity: admin.identity }),
      409,
      'OWNER_IS_FIXED',
    );
    expectError(
      await call(h, 'DELETE', `${base}/${owner.userId}`, { identity: owner.identity }),
      409,
      'OWNER_IS_FIXED',
    );
    expectError(await call(h, 'DELETE', `${base}/${stranger.userId}`, { identity: admin.identity }), 404, 'NOT_FOUND');

    const res = await call(h, 'DELETE', `${base}/${viewer.userId}`, { identity: admin.identity });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await kvRole(owner.userId, viewer.userId)).toBeNull();
    expectError(await call(h, 'GET', base, { identity: viewer.identity }), 403, 'NOT_A_MEMBER');

    const left = await call(h, 'DELETE', `${base}/${leaver.userId}`, { identity: leaver.identity });
    expect(left.status).toBe(200);
    expect(await kvRole(owner.userId, leaver.userId)).toBeNull();
    const events = await removed.waitFor((e) => e.data.workspaceId === owner.userId, 2);
    expect(events.map((e) => [e.data.userId, e.data.role, e.data.removedBy])).toEqual([
      [viewer.userId, 'viewer', admin.userId],
      [leaver.userId, 'editor', leaver.userId],
    ]);
    removed.stop();
    const members = await call(h, 'GET', base, { identity: owner.identity });
    expect(members.body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.userId, admin.userId]);
    const theirs = await call(h, 'GET', '/api/workspaces', { identity: viewer.identity });
    expect(theirs.body.workspaces.map((w: { id: string }) => w.id)).toEqual([viewer.userId]);
  });
});

describe("the gateways' bucket", () => {
  it('a start puts back a membership missing from the bucket or holding another role (the database is the truth)', async () => {
    const owner = await person(h, 'ws-rec-owner');
    const a = await person(h, 'ws-rec-a');
    const b = await person(h, 'ws-rec-b');
    await join(h, owner, a, 'editor');
    await join(h, owner, b, 'viewer');
    await kv.delete(`${owner.userId}.${a.userId}`);
    await kv.put(`${owner.userId}.${b.userId}`, JSON.stringify({ role: 'admin', v: 1 }));
    const again = await createServer(
      loadServiceConfig({
        ...env,
        PORT: '0',
        BILLING_EVENTS_FROM: 'new',
        LOG_LEVEL: 'silent',
        MONGO_DB: h.server.context.dbName,
        PUBLIC_URL,
      }),
    );
    try {
      await waitFor(
        'the bucket repaired',
        async () => (await kvRole(owner.userId, a.userId))?.role === 'editor',
        10_000,
      );
      await waitFor('the role repaired', async () => (await kvRole(owner.userId, b.userId))?.role === 'viewer', 10_000);
    } finally {
      await again.context.background.idle();
      await again.close();
    }
  });
});

// The upgrade to workspaces: members made by the real registration path (and an old external account), their
// workspaces taken away as before the upgrade, then the migration command run twice. It gives each member their
// workspace and owner row, dated as the account, and changes nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyUser } from '../src/cli/create-legacy-user';
import { migrateWorkspaces } from '../src/cli/migrate-workspaces';
import { call, env, type Harness, login, startHarness, uniqueEmail, verifiedMember, waitForMail } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_ws_migration');
});
afterAll(async () => {
  await h?.close();
});

const db = () => h.server.context.conn.db as NonNullable<typeof h.server.context.conn.db>;
const sorted = async (name: string, filter: Record<string, unknown> = {}) =>
  (await db().collection(name).find(filter).toArray()).sort((a, b) => String(a._id).localeCompare(String(b._id)));

describe('the workspace migration', () => {
  it('every account made gets its workspace at once (registration and the operator command)', async () => {
    const { email, password } = await verifiedMember(h, 'ws-mig-new');
    const { session } = await login(h, email, password);
    const legacyEmail = uniqueEmail('ws-mig-legacy');
    const out = await createLegacyUser(['--email', legacyEmail, '--first-name', '太郎', '--last-name', '山田'], {
      ...env,
      MONGO_DB: h.server.context.dbName,
      LOG_LEVEL: 'silent',
    });
    const legacyId = /created external account (\S+)/.exec(out)?.[1];
    await h.server.context.background.idle();
    const workspaces = db().collection('workspaces');
    expect(await workspaces.findOne({ _id: session.userId } as never)).toMatchObject({ name: '佐藤 花子' });
    expect(await workspaces.findOne({ _id: legacyId } as never)).toMatchObject({ name: '山田 太郎' });
  });

  it('gives every member their workspace and owner row, twice run, nothing else changed', async () => {
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await verifiedMember(h, `ws-mig-${i}`));
    // sessions, and a guest membership made by an invitation, which the migration must leave alone
    const sessions = [];
    for (const p of people.slice(0, 3)) sessions.push((await login(h, p.email, p.password)).session);
    const [owner, guest] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
    const invited = await call(h, 'POST', `/api/workspaces/${owner.userId}/invitations`, {
      identity: owner.identity,
      body: { email: people[1]?.email, role: 'editor' },
    });
    expect(invited.status).toBe(200);
    const token = /\/invitations\/([\w-]+)/.exec((await waitForMail(people[1]?.email ?? '', 2)).text)?.[1];
    const accepted = await call(h, 'POST', `/api/invitations/${token}/accept`, { identity: guest.identity });
    expect(accepted.status).toBe(200);
    await h.server.context.background.idle();

    // as before the upgrade: no workspace, no owner row
    await db().collection('workspaces').deleteMany({});
    await db().collection('workspace_members').deleteMany({ role: 'owner' });
    const users = await sorted('users');
    const sessionsBefore = await sorted('sessions');
    const guestsBefore = await sorted('workspace_members');
    const outboxBefore =
      (await db().collection('outbox').countDocuments()) + (await db().collection('outbox_sent').countDocuments());
    expect(users.length).toBeGreaterThanOrEqual(people.length);
    expect(sessionsBefore.length).toBeGreaterThanOrEqual(3);

    const cliEnv = { ...env, MONGO_DB: h.server.context.dbName, LOG_LEVEL: 'silent' };
    const first = await migrateWorkspaces(cliEnv);
    expect(first).toContain(`members read: ${users.length}`);
    expect(first).toContain(`workspaces created: ${users.length}, owner rows created: ${users.length}`);
    expect(first).toContain(`now: ${users.length} workspaces, ${users.length} owners, ${users.length + 1} memberships`);
    const second = await migrateWorkspaces(cliEnv);
    expect(second).toContain('workspaces created: 0, owner rows created: 0');
    expect(second).toContain(
      `now: ${users.length} workspaces, ${users.length} owners, ${users.length + 1} memberships`,
    );

    // nothing else changed: members, sessions, the guest membership, no event
    expect(await sorted('users')).toEqual(users);
    expect(await sorted('sessions')).toEqual(sessionsBefore);
    expect(await sorted('workspace_members', { role: { $ne: 'owner' } })).toEqual(guestsBefore);
    expect(
      (await db().collection('outbox').countDocuments()) + (await db().collection('outbox_sent').countDocuments()),
    ).toBe(outboxBefore);
    // each member owns a workspace named after them, dated as their account
    const workspaces = await sorted('workspaces');
    const owners = await sorted('workspace_members', { role: 'owner' });
    expect(workspaces.map((w) => w._id)).toEqual(users.map((u) => u._id));
    for (const [i, u] of users.entries()) {
      expect(workspaces[i]).toMatchObject({
        name: `${u.lastName} ${u.firstName}`,
        approvalRequired: false,
        createdAt: u.createdAt,
      });
      expect(owners.find((o) => o.userId === u._id)).toMatchObject({
        _id: `${u._id}:${u._id}`,
        workspaceId: u._id,
        role: 'owner',
      });
    }
    // and the members read them through the API as before
    const mine = await call(h, 'GET', '/api/workspaces', { identity: guest.identity });
    expect(mine.body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role])).toEqual([
      [guest.userId, 'owner'],
      [owner.userId, 'editor'],
    ]);
  });
});

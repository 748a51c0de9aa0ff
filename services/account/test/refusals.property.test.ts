// A refused call changes nothing: calls that a member's stored role may not make in a workspace (drawn over every
// account route a role is refused: the workspace's members and invitations for editor, publisher, broadcaster and
// viewer, and any call of a member claiming 'owner'; the workspace's real member and invitation ids or random ones,
// valid or random bodies) are each answered 403 FORBIDDEN_ROLE, and afterwards every collection, the events and the
// mails to everyone involved are as they were (service-kit's refusal-property).
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, env, type Harness, membersOfEachRole, person, startHarness, uniqueEmail, waitForMail } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_refusals');
});
afterAll(async () => {
  await h?.close();
});

describe('refused calls', () => {
  it('change nothing: every collection, the events and the mails stay as they were', async () => {
    const owner = await person(h, 'refusals-owner');
    const members = await membersOfEachRole(h, owner, 'refusals', ['editor', 'publisher', 'broadcaster', 'viewer']);
    // an invitation still open, for the routes that name one
    const pending = uniqueEmail('refusals-pending');
    const invitation = await call(h, 'POST', `/api/workspaces/${owner.userId}/invitations`, {
      identity: owner.identity,
      body: { email: pending, role: 'editor' },
    });
    expect(invitation.status, JSON.stringify(invitation.body)).toBe(200);
    await waitForMail(pending);
    await h.server.context.background.idle();

    const people = Object.values(members);
    const report = await refusalsChangeNothing({
      service: 'account',
      baseUrl: h.url,
      secret: env.INTERNAL_SECRET,
      conn: h.server.context.conn,
      nc: h.nats.nc,
      workspaceId: owner.userId,
      ids: [...people.map((p) => p.userId), invitation.body.id],
      // account decides by the stored membership: the members themselves call, and one of them claims 'owner'
      callers: {
        ...Object.fromEntries(Object.entries(members).map(([role, p]) => [role, p.identity])),
        owner: members.viewer.identity,
      },
      mailTo: [owner.email, pending, ...people.map((p) => p.email)],
      numRuns: 100,
    });
    console.log('[refusals] account', JSON.stringify(report));
    expect(report.runs).toBe(100);
  }, 120_000);
});

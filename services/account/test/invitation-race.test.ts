// An invitation accepted and revoked at the same moment, against the real FerretDB: exactly one of the two wins, and
// what each caller was told is what the invitation and the membership say afterwards.
import { randomUUID } from 'node:crypto';
import { INVITATION_TTL_MS } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../src/domain';
import { call, type Harness, type Person, person, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_invitation_race');
});
afterAll(async () => {
  await h?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pending invitation of `guest` into `owner`'s workspace, stored as the invite route stores it (no mail needed). */
async function pendingInvitation(owner: Person, guest: Person) {
  const { token, hash } = newToken();
  const now = new Date();
  const id = randomUUID();
  await h.server.context.data.workspaces.createInvitation({
    _id: id,
    workspaceId: owner.userId,
    email: guest.email,
    role: 'editor',
    language: 'ja',
    tokenHash: hash,
    invitedBy: owner.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    revokedAt: null,
    acceptedAt: null,
    acceptedBy: null,
  });
  return { id, token };
}

describe('accept against revoke', () => {
  it('never both: the winner is what the invitation, the member list and both answers say', async () => {
    const owner = await person(h, 'race-owner');
    const guest = await person(h, 'race-guest');
    const { workspaces } = h.server.context.data;
    const outcomes = { accepted: 0, revoked: 0 };
    const rounds = 40;
    for (let round = 0; round < rounds; round++) {
      const inv = await pendingInvitation(owner, guest);
      // the revoke starts a little later each round, so that it lands anywhere in the accept's steps
      const delay = round % 10;
      const [accept, revoke] = await Promise.all([
        call(h, 'POST', `/api/invitations/${inv.token}/accept`, { identity: guest.identity }),
        sleep(delay).then(() =>
          call(h, 'DELETE', `/api/workspaces/${owner.userId}/invitations/${inv.id}`, { identity: owner.identity }),
        ),
      ]);
      const told = `round ${round} (+${delay} ms): accept ${accept.status} ${accept.body?.code ?? ''}, revoke ${revoke.status} ${revoke.body?.code ?? ''}`;
      const stored = await workspaces.invitation(owner.userId, inv.id);
      const member = await workspaces.member(owner.userId, guest.userId);
      const listed = await call(h, 'GET', `/api/workspaces/${owner.userId}/members`, { identity: owner.identity });
      const inList = listed.body.members.some((m: { userId: string }) => m.userId === guest.userId);
      if (accept.status === 200) {
        outcomes.accepted++;
        // the admin must not be told "revoked" while the person has joined
        expect(revoke.status, told).not.toBe(200);
        expect({ status: revoke.status, code: revoke.body?.code }, told).toEqual({
          status: 409,
          code: 'INVITATION_ALREADY_ACCEPTED',
        });
        expect(member?.role, told).toBe('editor');
        expect(inList, told).toBe(true);
        expect({ accepted: stored?.acceptedBy, revoked: stored?.revokedAt }, told).toEqual({
          accepted: guest.userId,
          revoked: null,
        });
        // back to a stranger for the next round
        const left = await call(h, 'DELETE', `/api/workspaces/${owner.userId}/members/${guest.userId}`, {
          identity: owner.identity,
        });
        expect(left.status, told).toBe(200);
      } else {
        outcomes.revoked++;
        expect({ status: accept.status, code: accept.body?.code }, told).toEqual({
          status: 404,
          code: 'INVITATION_NOT_FOUND',
        });
        expect(revoke.status, told).toBe(200);
        expect(member, told).toBeNull();
        expect(inList, told).toBe(false);
        expect({ accepted: stored?.acceptedAt, revoked: stored?.revokedAt instanceof Date }, told).toEqual({
          accepted: null,
          revoked: true,
        });
      }
      await h.server.context.background.idle();
    }
    // both sides won some rounds, so the test met the race from both ends
    expect(outcomes.accepted, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(outcomes.revoked, JSON.stringify(outcomes)).toBeGreaterThan(0);
  }, 120_000);

  it('a call that stopped after deciding (a crash) is finished by the next, never reversed', async () => {
    const owner = await person(h, 'race-stop-owner');
    const guest = await person(h, 'race-stop-guest');
    const { workspaces } = h.server.context.data;
    const revokePath = (id: string) => `/api/workspaces/${owner.userId}/invitations/${id}`;

    // an acceptance decided, then stopped before the membership: the invitation still looks open
    const accepted = await pendingInvitation(owner, guest);
    await workspaces.decideInvitation({ _id: accepted.id, outcome: 'accepted', userId: guest.userId, at: new Date() });
    const refused = await call(h, 'DELETE', revokePath(accepted.id), { identity: owner.identity });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 409,
      code: 'INVITATION_ALREADY_ACCEPTED',
    });
    // not marked used before its member exists, so the person's retry still joins
    expect((await workspaces.invitation(owner.userId, accepted.id))?.acceptedAt).toBeNull();
    const retried = await call(h, 'POST', `/api/invitations/${accepted.token}/accept`, { identity: guest.identity });
    expect(retried.status).toBe(200);
    expect((await workspaces.member(owner.userId, guest.userId))?.role).toBe('editor');
    expect((await workspaces.invitation(owner.userId, accepted.id))?.acceptedBy).toBe(guest.userId);
    await call(h, 'DELETE', `/api/workspaces/${owner.userId}/members/${guest.userId}`, { identity: owner.identity });

    // a revoke decided, then stopped before marking the invitation: the link is closed, a second revoke finishes it
    const revoked = await pendingInvitation(owner, guest);
    await workspaces.decideInvitation({ _id: revoked.id, outcome: 'revoked', userId: owner.userId, at: new Date() });
    const late = await call(h, 'POST', `/api/invitations/${revoked.token}/accept`, { identity: guest.identity });
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 404, code: 'INVITATION_NOT_FOUND' });
    expect(await workspaces.member(owner.userId, guest.userId)).toBeNull();
    expect((await call(h, 'DELETE', revokePath(revoked.id), { identity: owner.identity })).status).toBe(200);
    expect((await workspaces.invitation(owner.userId, revoked.id))?.revokedAt).toBeInstanceOf(Date);
    const again = await call(h, 'DELETE', revokePath(revoked.id), { identity: owner.identity });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: 'INVITATION_NOT_FOUND' });
  });
});

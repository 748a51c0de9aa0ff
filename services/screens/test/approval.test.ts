// Approval against the real service (FerretDB, NATS): with the workspace's setting on, an editor's change of what
// screens play waits as a proposal (202) and nothing played changes; owners, admins, takeovers and a setting off go
// through at once; a proposal is approved once whoever races for it, rejected with a reason, withdrawn by its editor
// (or an owner or admin); a stale change is refused at approval and stays pending; a crash between the decision and
// its end is finished by the sweep without making the change twice.
import { randomUUID } from 'node:crypto';
import {
  createEvent,
  PROPOSALS_PENDING_MAX,
  ProposalAccepted,
  ProposalDetail,
  subjects,
  WORKSPACE_SETTINGS_BUCKET,
  type WorkspaceRole,
} from '@pagecast/contracts';
import { openKeyValue } from '@pagecast/service-kit';
import { describe, expect, it } from 'vitest';
import { proposedChangeId } from '../src/use-cases/bulk-change';
import { proposedGroupId } from '../src/use-cases/groups';
import { finishDecisions, planChange } from '../src/use-cases/proposals';
import { eventually, manifest, ok, refused } from './fleet-helpers';
import { announcer, call, eventsHandled, member, pairDisplay, startReplica, useService } from './helpers';

const svc = useService();

const as = (owner: { userId: string }, role: WorkspaceRole, userId = `u-${randomUUID()}`) => ({
  userId,
  workspaceId: owner.userId,
  role,
});

/** The workspace's setting, as account mirrors it (the same bucket settings as account opens it with). */
async function setApproval(workspaceId: string, value: unknown) {
  const kv = await openKeyValue(svc.server.context.nats, WORKSPACE_SETTINGS_BUCKET, { ttlMs: 0 });
  if (value === undefined) await kv.delete(workspaceId);
  else await kv.put(workspaceId, typeof value === 'string' ? value : JSON.stringify(value));
}
const approvalOn = (workspaceId: string) => setApproval(workspaceId, { approvalRequired: true, v: 1 });

async function workspace(approval = true) {
  const owner = member();
  const a = announcer(svc);
  const fileId = await a.file(owner.userId, 3, Date.now() - 60_000);
  const playlistId = await a.playlist(owner.userId, [fileId], Date.now() - 60_000);
  const other = await a.playlist(owner.userId, [fileId], Date.now() - 60_000);
  await eventsHandled(svc);
  const lobby = await pairDisplay(svc, owner, 'Lobby');
  const cafe = await pairDisplay(svc, owner, 'Cafe');
  const east = await ok(svc, owner, 'POST', '/api/screens/groups', {
    name: 'East',
    screenIds: [lobby.screenId],
    assignment: { kind: 'playlist', playlistId },
  });
  if (approval) await approvalOn(owner.userId);
  return { owner, playlistId, other, lobby, cafe, east, editor: as(owner, 'editor') };
}

/** What plays: the screens and groups as the owner reads them, and each display's manifest. */
async function played(w: Awaited<ReturnType<typeof workspace>>) {
  const strip = (screens: Array<Record<string, unknown>>) =>
    screens.map(({ status: _s, lastSeenAt: _l, online: _o, ...rest }) => rest);
  return {
    screens: strip(await ok(svc, w.owner, 'GET', '/api/screens')),
    groups: await ok(svc, w.owner, 'GET', '/api/screens/groups'),
    lobby: await manifest(svc, w.lobby.device),
    cafe: await manifest(svc, w.cafe.device),
  };
}

/** The outbox's entries of these subjects for this owner (sent or not: every event a change made). */
async function announced(ownerId: string, ...subjectsWanted: string[]) {
  const entries = await svc.server.context.outbox.entries();
  return entries.filter((e) => {
    const data = (e as unknown as { data?: Record<string, unknown>; subject: string }).data ?? {};
    return subjectsWanted.includes(e.subject) && (data.ownerId === ownerId || data.workspaceId === ownerId);
  });
}
const PLAYED = ['screens.fleet.changed.v1', 'screens.screen.changed.v1'];

describe('approval', () => {
  it("an editor's change of what plays waits (202) and changes nothing played; a rename alone goes through", async () => {
    const w = await workspace();
    const { editor, lobby, cafe, east, playlistId, other } = w;
    const before = await played(w);
    const eventsBefore = (await announced(w.owner.userId, ...PLAYED)).length;
    const changes: Array<[string, string, unknown, string]> = [
      ['PUT', `/api/screens/${cafe.screenId}`, { assignment: { kind: 'playlist', playlistId } }, 'update-screen'],
      // a mixed body waits whole (the name too)
      ['PUT', `/api/screens/${cafe.screenId}`, { name: 'Cafe 2', openingHours: [] }, 'update-screen'],
      ['POST', '/api/screens/groups', { name: 'West', screenIds: [cafe.screenId] }, 'create-group'],
      [
        'PUT',
        `/api/screens/groups/${east.id}`,
        { assignment: { kind: 'playlist', playlistId: other } },
        'update-group',
      ],
      ['PUT', `/api/screens/groups/${east.id}`, { screenIds: [lobby.screenId, cafe.screenId] }, 'update-group'],
      ['DELETE', `/api/screens/groups/${east.id}`, undefined, 'delete-group'],
      ['PUT', '/api/screens/groups/order', { groupIds: [east.id] }, 'group-order'],
      [
        'POST',
        '/api/screens/bulk',
        {
          selection: { by: 'ids', screenIds: [cafe.screenId] },
          change: { kind: 'assign', assignment: { kind: 'none' } },
        },
        'bulk',
      ],
    ];
    const ids: string[] = [];
    for (const [method, path, body, kind] of changes) {
      const res = await call(svc, editor, method, path, body);
      expect({ status: res.status, kind: res.body.proposal?.change?.kind }, JSON.stringify(res.body)).toEqual({
        status: 202,
        kind,
      });
      expect(res.body.proposal).toMatchObject({ status: 'pending', proposedBy: editor.userId, decidedBy: null });
      // the contract's 202 answer
      ProposalAccepted.parse(res.body);
      ids.push(res.body.proposal.id);
    }
    expect(await played(w)).toEqual(before);
    expect((await announced(w.owner.userId, ...PLAYED)).length).toBe(eventsBefore);
    expect((await announced(w.owner.userId, 'screens.proposal.created.v1')).length).toBe(changes.length);
    // the proposals, newest first, one page at a time
    const first = await ok(svc, editor, 'GET', '/api/screens/proposals?limit=5');
    const second = await ok(svc, editor, 'GET', `/api/screens/proposals?limit=5&cursor=${first.nextCursor}`);
    expect([...first.proposals, ...second.proposals].map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    expect(second.nextCursor).toBeNull();
    // the screens each would alter: the cafe's assignment; the group's content alters its member's agenda
    expect(first.proposals.length).toBe(5);
    const byKind = (await ok(svc, editor, 'GET', '/api/screens/proposals?limit=100')).proposals;
    expect(byKind.find((p: { id: string }) => p.id === ids[0]).screenIds).toEqual([cafe.screenId]);
    expect(byKind.find((p: { id: string }) => p.id === ids[3]).screenIds).toEqual([lobby.screenId]);

    // a rename, a zone or a rotation alone is made at once
    const renamed = await ok(svc, editor, 'PUT', `/api/screens/${cafe.screenId}`, { name: 'Café' });
    expect(renamed.name).toBe('Café');
    expect((await manifest(svc, cafe.device)).name).toBe('Café');
    // an editor may not unpair (in bulk either): that is the fleet itself
    await refused(
      svc,
      editor,
      'POST',
      '/api/screens/bulk',
      { selection: { by: 'ids', screenIds: [cafe.screenId] }, change: { kind: 'unpair' } },
      403,
      'FORBIDDEN_ROLE',
    );
  });

  it('owner, admin, takeovers and a workspace without approval go through at once; an unreadable setting refuses', async () => {
    const w = await workspace();
    const { owner, cafe, playlistId } = w;
    const assign = { assignment: { kind: 'playlist', playlistId } };
    expect((await call(svc, owner, 'PUT', `/api/screens/${cafe.screenId}`, assign)).status).toBe(200);
    expect(
      (await call(svc, as(owner, 'admin'), 'POST', '/api/screens/groups', { name: 'A', screenIds: [] })).status,
    ).toBe(201);
    // takeovers never wait: a broadcaster's from a template, and an admin's typed on the spot
    const drill = await ok(svc, owner, 'POST', '/api/screens/takeover-templates', {
      name: '避難訓練',
      content: { kind: 'message', title: '地震発生', body: '避難してください' },
      minutes: 15,
    });
    const started = await call(svc, as(owner, 'broadcaster'), 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      templateId: drill.id,
    });
    expect(started.status).toBe(201);
    expect((await ok(svc, owner, 'GET', '/api/screens/takeovers')).length).toBe(1);
    expect((await ok(svc, w.editor, 'GET', '/api/screens/proposals')).proposals).toEqual([]);

    // the setting off (or never set): an editor's change is made
    await setApproval(owner.userId, { approvalRequired: false, v: 1 });
    const off = await call(svc, w.editor, 'PUT', `/api/screens/${cafe.screenId}`, { assignment: { kind: 'none' } });
    expect(off.status).toBe(200);
    expect(off.body.assignment).toEqual({ kind: 'none' });
    await setApproval(owner.userId, undefined);
    expect((await call(svc, w.editor, 'PUT', `/api/screens/${cafe.screenId}`, assign)).status).toBe(200);

    // a value nobody understands: refused rather than let the change through unapproved
    const before = await played(w);
    await setApproval(owner.userId, '{"approvalRequired":"yes"}');
    await refused(
      svc,
      w.editor,
      'PUT',
      `/api/screens/${cafe.screenId}`,
      { assignment: { kind: 'none' } },
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(await played(w)).toEqual(before);
  });

  it('the detail shows each difference and the agenda it would give beside the current one', async () => {
    const w = await workspace();
    const { editor, east, lobby, other, playlistId } = w;
    const res = await call(svc, editor, 'PUT', `/api/screens/groups/${east.id}`, {
      assignment: { kind: 'playlist', playlistId: other },
    });
    expect(res.status).toBe(202);
    const detail = await ok(svc, as(w.owner, 'publisher'), 'GET', `/api/screens/proposals/${res.body.proposal.id}`);
    expect(detail.objects).toEqual([
      {
        type: 'group',
        id: east.id,
        diff: [
          {
            path: ['assignment', 'playlistId'],
            before: playlistId,
            after: other,
          },
        ],
      },
    ]);
    ProposalDetail.parse(detail);
    expect(detail.agendaScreensTotal).toBe(1);
    expect(detail.agenda.map((a: { screenId: string }) => a.screenId)).toEqual([lobby.screenId]);
    expect(JSON.stringify(detail.agenda[0].entries)).toContain(other);
    expect(JSON.stringify(detail.current[0].entries)).toContain(playlistId);
    expect(JSON.stringify(detail.current[0].entries)).not.toContain(other);
    // the current agenda is the one the screen's own route gives
    const agendaNow = await ok(svc, w.owner, 'GET', `/api/screens/${lobby.screenId}/agenda`);
    expect(detail.current[0].entries.map((e: { reason: unknown }) => e.reason)).toEqual(
      agendaNow.entries.map((e: { reason: unknown }) => e.reason),
    );
  });

  it('approves once under two approvers at once, and once when an approval races a rejection', async () => {
    const w = await workspace();
    const { owner, editor, cafe } = w;
    const proposal = (
      await call(svc, editor, 'POST', '/api/screens/groups', { name: 'West', screenIds: [cafe.screenId] })
    ).body.proposal;
    const [p1, p2] = [as(owner, 'publisher'), as(owner, 'admin')];
    // the second approver through another instance (its own process line; the lease and the decision's insert decide)
    const replica = await startReplica(svc);
    const answers = await Promise.all([
      call(svc, p1, 'POST', `/api/screens/proposals/${proposal.id}/approve`),
      call(replica, p2, 'POST', `/api/screens/proposals/${proposal.id}/approve`),
    ]).finally(() => replica.close());
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.code).toBe('PROPOSAL_DECIDED');
    const groups = await ok(svc, owner, 'GET', '/api/screens/groups');
    expect(groups.filter((g: { name: string }) => g.name === 'West')).toEqual([
      expect.objectContaining({ id: proposedGroupId(proposal.id), screenIds: [cafe.screenId] }),
    ]);
    expect((await manifest(svc, cafe.device)).groups).toEqual([
      { id: proposedGroupId(proposal.id), assignment: { kind: 'none' } },
    ]);
    const done = await ok(svc, editor, 'GET', `/api/screens/proposals/${proposal.id}`);
    expect(done.proposal).toMatchObject({ status: 'approved', reason: null });
    expect([p1.userId, p2.userId]).toContain(done.proposal.decidedBy);
    await eventually(
      async () =>
        (await announced(owner.userId, 'screens.fleet.changed.v1')).some(
          (e) => (e as unknown as { data: { groupId?: string } }).data.groupId === proposedGroupId(proposal.id),
        ) || undefined,
    );
    // the audit log: the proposal made, approved, and the change's own entry (by the approver who put it on air)
    const audit = (await announced(owner.userId, 'audit.screens.entry.v1')).map(
      (e) => (e as unknown as { data: { action: string; object: { id: string }; actorUserId: string } }).data,
    );
    expect(audit.filter((a) => a.object.id === proposal.id).map((a) => [a.action, a.actorUserId])).toEqual([
      ['proposal.created', editor.userId],
      ['proposal.approved', done.proposal.decidedBy],
    ]);
    expect(
      audit.filter((a) => a.object.id === proposedGroupId(proposal.id)).map((a) => [a.action, a.actorUserId]),
    ).toEqual([['group.created', done.proposal.decidedBy]]);
    const decided = await announced(owner.userId, 'screens.proposal.decided.v1');
    expect(decided.map((e) => (e as unknown as { data: { outcome: string } }).data.outcome)).toEqual(['approved']);

    // approve against reject, many times: exactly one wins and the proposal ends as the winner says
    for (let round = 0; round < 4; round++) {
      const name = `Race ${round}`;
      const { id } = (await call(svc, editor, 'POST', '/api/screens/groups', { name, screenIds: [] })).body.proposal;
      const [approve, reject] = await Promise.all([
        call(svc, p1, 'POST', `/api/screens/proposals/${id}/approve`),
        call(svc, p2, 'POST', `/api/screens/proposals/${id}/reject`, { reason: '今回は見送ります' }),
      ]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const status = (await ok(svc, editor, 'GET', `/api/screens/proposals/${id}`)).proposal.status;
      const made = (await ok(svc, owner, 'GET', '/api/screens/groups')).filter(
        (g: { name: string }) => g.name === name,
      );
      if (approve.status === 200) {
        expect(status).toBe('approved');
        expect(made.length).toBe(1);
      } else {
        expect(status).toBe('rejected');
        expect(made).toEqual([]);
      }
    }
  });

  it('an approved screen change and bulk change are made as their calls make them (the display follows)', async () => {
    const w = await workspace();
    const { owner, editor, lobby, cafe, other } = w;
    const publisher = as(owner, 'publisher');
    const own = (
      await call(svc, editor, 'PUT', `/api/screens/${cafe.screenId}`, {
        name: 'Café',
        assignment: { kind: 'playlist', playlistId: other },
      })
    ).body.proposal.id;
    const bulk = (
      await call(svc, editor, 'POST', '/api/screens/bulk', {
        selection: { by: 'ids', screenIds: [lobby.screenId, cafe.screenId] },
        change: { kind: 'set-time-zone', timeZone: 'Europe/Paris' },
      })
    ).body.proposal.id;
    expect((await manifest(svc, cafe.device)).name).toBe('Cafe');
    await ok(svc, publisher, 'POST', `/api/screens/proposals/${own}/approve`);
    await ok(svc, publisher, 'POST', `/api/screens/proposals/${bulk}/approve`);
    const cafeNow = await manifest(svc, cafe.device);
    expect(cafeNow).toMatchObject({ name: 'Café', assignment: { kind: 'playlist', playlistId: other } });
    const screens = await ok(svc, owner, 'GET', '/api/screens');
    expect(screens.map((s: { timeZone: string }) => s.timeZone)).toEqual(['Europe/Paris', 'Europe/Paris']);
    // the bulk change is one change, under the id the proposal gives it
    const fleet = (await announced(owner.userId, 'screens.fleet.changed.v1')).map(
      (e) => (e as unknown as { data: { changeId: string; kind: string } }).data,
    );
    expect(fleet.filter((e) => e.kind === 'set-time-zone').map((e) => e.changeId)).toEqual([proposedChangeId(bulk)]);
  });

  it('rejects with a reason (none refused), not by its own editor; a decided proposal is decided', async () => {
    const w = await workspace();
    const { owner, cafe, playlistId } = w;
    const editorId = `u-${randomUUID()}`;
    const editor = as(owner, 'editor', editorId);
    const { id } = (
      await call(svc, editor, 'PUT', `/api/screens/${cafe.screenId}`, { assignment: { kind: 'playlist', playlistId } })
    ).body.proposal;
    const publisher = as(owner, 'publisher');
    await refused(svc, publisher, 'POST', `/api/screens/proposals/${id}/reject`, { reason: '  ' }, 400, 'VALIDATION');
    await refused(svc, publisher, 'POST', `/api/screens/proposals/${id}/reject`, {}, 400, 'VALIDATION');
    // the same person, made publisher since, does not decide their own proposal
    const self = as(owner, 'publisher', editorId);
    await refused(svc, self, 'POST', `/api/screens/proposals/${id}/approve`, undefined, 403, 'PROPOSAL_OWN');
    await refused(svc, self, 'POST', `/api/screens/proposals/${id}/reject`, { reason: 'x' }, 403, 'PROPOSAL_OWN');
    // an editor does not decide at all
    await refused(
      svc,
      as(owner, 'editor'),
      'POST',
      `/api/screens/proposals/${id}/approve`,
      undefined,
      403,
      'FORBIDDEN_ROLE',
    );
    const rejected = await ok(svc, publisher, 'POST', `/api/screens/proposals/${id}/reject`, {
      reason: ' 夜の時間帯は別の番組です ',
    });
    expect(rejected).toMatchObject({
      status: 'rejected',
      reason: '夜の時間帯は別の番組です',
      decidedBy: publisher.userId,
    });
    await refused(svc, publisher, 'POST', `/api/screens/proposals/${id}/approve`, undefined, 409, 'PROPOSAL_DECIDED');
    await refused(svc, editor, 'DELETE', `/api/screens/proposals/${id}`, undefined, 409, 'PROPOSAL_DECIDED');
    expect(
      (await ok(svc, owner, 'GET', '/api/screens')).find((s: { id: string }) => s.id === cafe.screenId).assignment,
    ).toEqual({
      kind: 'none',
    });
    const decided = (await announced(owner.userId, 'screens.proposal.decided.v1')).map(
      (e) => (e as unknown as { data: Record<string, unknown> }).data,
    );
    expect(decided).toEqual([
      expect.objectContaining({ outcome: 'rejected', reason: '夜の時間帯は別の番組です', proposedBy: editorId }),
    ]);
    // another workspace's proposal is not found
    await refused(svc, member(), 'GET', `/api/screens/proposals/${id}`, undefined, 404, 'PROPOSAL_NOT_FOUND');
  });

  it('a change refused now (its playlist deleted since) is the answer of approval, and the proposal stays pending', async () => {
    const w = await workspace();
    const { owner, cafe, other } = w;
    const { id } = (
      await call(svc, w.editor, 'PUT', `/api/screens/${cafe.screenId}`, {
        assignment: { kind: 'playlist', playlistId: other },
      })
    ).body.proposal;
    const { js } = svc.server.context.nats;
    await js.publish(
      subjects.playlistDeleted,
      JSON.stringify(
        createEvent(subjects.playlistDeleted, {
          playlistId: other,
          ownerId: owner.userId,
          deletedAt: new Date().toISOString(),
        }),
      ),
    );
    await eventsHandled(svc);
    const before = await played(w);
    await refused(
      svc,
      as(owner, 'publisher'),
      'POST',
      `/api/screens/proposals/${id}/approve`,
      undefined,
      404,
      'PLAYLIST_NOT_FOUND',
    );
    expect((await ok(svc, owner, 'GET', `/api/screens/proposals/${id}`)).proposal.status).toBe('pending');
    expect(await played(w)).toEqual(before);
    // still open: it may be rejected (or withdrawn) afterwards
    expect(
      (await ok(svc, owner, 'POST', `/api/screens/proposals/${id}/reject`, { reason: 'その番組は削除済み' })).status,
    ).toBe('rejected');
  });

  it('is withdrawn by its editor or an owner or admin, not by another editor', async () => {
    const w = await workspace();
    const { owner, editor, cafe } = w;
    const propose = async () =>
      (await call(svc, editor, 'PUT', `/api/screens/${cafe.screenId}`, { openingHours: [] })).body.proposal
        .id as string;
    const a = await propose();
    await refused(svc, as(owner, 'editor'), 'DELETE', `/api/screens/proposals/${a}`, undefined, 403, 'FORBIDDEN_ROLE');
    await refused(
      svc,
      as(owner, 'publisher'),
      'DELETE',
      `/api/screens/proposals/${a}`,
      undefined,
      403,
      'FORBIDDEN_ROLE',
    );
    expect((await ok(svc, editor, 'DELETE', `/api/screens/proposals/${a}`)).status).toBe('withdrawn');
    const b = await propose();
    expect((await ok(svc, as(owner, 'admin'), 'DELETE', `/api/screens/proposals/${b}`)).status).toBe('withdrawn');
    const c = await propose();
    expect((await ok(svc, owner, 'DELETE', `/api/screens/proposals/${c}`)).status).toBe('withdrawn');
    const pending = await ok(svc, owner, 'GET', '/api/screens/proposals?status=pending');
    expect(pending.proposals).toEqual([]);
    expect((await ok(svc, owner, 'GET', '/api/screens/proposals?status=withdrawn')).proposals.length).toBe(3);
    // a withdrawal mails nobody (no decided event); the audit log has each
    expect(await announced(owner.userId, 'screens.proposal.decided.v1')).toEqual([]);
    const audit = (await svc.server.context.outbox.entries()).filter(
      (e) =>
        e.subject === 'audit.screens.entry.v1' &&
        (e as unknown as { data: { workspaceId: string; action: string } }).data.workspaceId === owner.userId &&
        (e as unknown as { data: { action: string } }).data.action.startsWith('proposal.'),
    );
    expect(audit.map((e) => (e as unknown as { data: { action: string } }).data.action).sort()).toEqual(
      [...Array(3).fill('proposal.created'), ...Array(3).fill('proposal.withdrawn')].sort(),
    );
  });

  it(`refuses a proposal beyond ${PROPOSALS_PENDING_MAX} pending (409 PROPOSALS_PENDING_LIMIT), storing nothing`, async () => {
    const w = await workspace();
    const { proposals } = svc.server.context.data;
    const base = await proposals.get(
      (await call(svc, w.editor, 'PUT', `/api/screens/${w.cafe.screenId}`, { openingHours: [] })).body.proposal.id,
    );
    if (!base) throw new Error('no proposal');
    for (let i = 1; i < PROPOSALS_PENDING_MAX; i++) await proposals.insert({ ...base, _id: randomUUID() });
    await refused(
      svc,
      w.editor,
      'PUT',
      `/api/screens/${w.cafe.screenId}`,
      { openingHours: [] },
      409,
      'PROPOSALS_PENDING_LIMIT',
    );
    expect(await proposals.countPending(w.owner.userId)).toBe(PROPOSALS_PENDING_MAX);
    // one decided makes room again
    await ok(svc, w.editor, 'DELETE', `/api/screens/proposals/${base._id}`);
    expect((await call(svc, w.editor, 'PUT', `/api/screens/${w.cafe.screenId}`, { openingHours: [] })).status).toBe(
      202,
    );
  }, 60_000);

  it('a decision a crash left half done (taken, or taken and applied) is finished by the sweep, the change made once', async () => {
    const w = await workspace();
    const { owner, editor, cafe } = w;
    const ctx = svc.server.context;
    const publisher = { userId: `u-${randomUUID()}`, address: '203.0.113.9' };
    const crash = async (name: string, applied: boolean) => {
      const { id } = (await call(svc, editor, 'POST', '/api/screens/groups', { name, screenIds: [cafe.screenId] })).body
        .proposal;
      // what an approval does before its end: the decision, and maybe the change
      await ctx.data.proposals.decisions.take({
        _id: id,
        workspaceId: owner.userId,
        outcome: 'approved',
        by: publisher.userId,
        address: publisher.address,
        at: new Date(),
        reason: null,
        finishedAt: null,
      });
      const proposal = await ctx.data.proposals.get(id);
      if (applied && proposal)
        await (await planChange(ctx, owner.userId, proposal.change, { proposalId: id })).apply(publisher);
      return id;
    };
    const taken = await crash('Taken', false);
    const applied = await crash('Applied', true);
    // meanwhile nobody else decides them
    await refused(
      svc,
      as(owner, 'admin'),
      'POST',
      `/api/screens/proposals/${taken}/reject`,
      { reason: 'x' },
      409,
      'PROPOSAL_DECIDED',
    );
    await finishDecisions(ctx);
    await finishDecisions(ctx);
    const groups = await ok(svc, owner, 'GET', '/api/screens/groups');
    for (const [id, name] of [
      [taken, 'Taken'],
      [applied, 'Applied'],
    ] as const) {
      expect(groups.filter((g: { name: string }) => g.name === name).map((g: { id: string }) => g.id)).toEqual([
        proposedGroupId(id),
      ]);
      expect((await ok(svc, owner, 'GET', `/api/screens/proposals/${id}`)).proposal).toMatchObject({
        status: 'approved',
        decidedBy: publisher.userId,
      });
    }
    // the screen joined each group once
    for (const id of [taken, applied]) {
      const group = groups.find((g: { id: string }) => g.id === proposedGroupId(id));
      expect(group.screenIds).toEqual([cafe.screenId]);
    }
    expect(((await manifest(svc, cafe.device)).groups as Array<{ id: string }>).map((g) => g.id).sort()).toEqual(
      [proposedGroupId(taken), proposedGroupId(applied)].sort(),
    );
    // each outcome announced once
    const decided = (await announced(owner.userId, 'screens.proposal.decided.v1')).map(
      (e) => (e as unknown as { data: { proposalId: string } }).data.proposalId,
    );
    expect(decided.sort()).toEqual([taken, applied].sort());
    const created = (await announced(owner.userId, 'screens.fleet.changed.v1')).filter((e) =>
      [proposedGroupId(taken), proposedGroupId(applied)].includes(
        (e as unknown as { data: { groupId?: string } }).data.groupId ?? '',
      ),
    );
    expect(created.length).toBe(2);
  });
});

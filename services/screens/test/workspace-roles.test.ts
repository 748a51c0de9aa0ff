// Members acting in someone else's workspace, as the gateway's signed identity names it (the workspace and their
// role there): a viewer reads the workspace's screens, groups and takeovers and changes nothing; an editor changes
// what screens play, and what they make is the workspace's (its owner's id); a broadcaster starts and ends takeovers
// from templates only, logged under their own name.
import { randomUUID } from 'node:crypto';
import type { WorkspaceRole } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { manifest, ok, refused } from './fleet-helpers';
import { member, pairDisplay, useService } from './helpers';

const svc = useService();

const quake = { kind: 'message', title: '地震発生', body: '係員の指示に従って避難してください' };
const as = (owner: { userId: string }, role: WorkspaceRole) => ({
  userId: `u-${randomUUID()}`,
  workspaceId: owner.userId,
  role,
});

/** Everything of the owner's workspace a write could touch, as the owner reads it. */
async function snapshot(owner: { userId: string }) {
  return {
    screens: await ok(svc, owner, 'GET', '/api/screens'),
    groups: await ok(svc, owner, 'GET', '/api/screens/groups'),
    takeovers: await ok(svc, owner, 'GET', '/api/screens/takeovers'),
    log: await ok(svc, owner, 'GET', '/api/screens/takeovers/log'),
    templates: await ok(svc, owner, 'GET', '/api/screens/takeover-templates'),
    rules: await ok(svc, owner, 'GET', '/api/screens/alert-rules'),
  };
}

async function workspace() {
  const owner = member();
  const lobby = await pairDisplay(svc, owner, 'Lobby');
  const east = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'East', screenIds: [lobby.screenId] });
  const drill = await ok(svc, owner, 'POST', '/api/screens/takeover-templates', {
    name: '避難訓練',
    content: quake,
    minutes: 15,
  });
  return { owner, lobby, east, drill };
}

describe('roles in a workspace', () => {
  it("a viewer reads the workspace's screens and groups; every write is 403 FORBIDDEN_ROLE and changes nothing", async () => {
    const { owner, lobby, east, drill } = await workspace();
    const viewer = as(owner, 'viewer');
    const screens = await ok(svc, viewer, 'GET', '/api/screens');
    expect(screens.map((s: { id: string }) => s.id)).toEqual([lobby.screenId]);
    expect((await ok(svc, viewer, 'GET', '/api/screens/groups')).map((g: { id: string }) => g.id)).toEqual([east.id]);
    expect(await ok(svc, viewer, 'GET', '/api/screens/takeover-templates')).toEqual([drill]);

    const before = await snapshot(owner);
    const announced = (await svc.server.context.outbox.entries()).length;
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/screens/groups', { name: 'West', screenIds: [] }],
      ['PUT', `/api/screens/groups/${east.id}`, { name: 'Renamed' }],
      ['DELETE', `/api/screens/groups/${east.id}`, undefined],
      ['PUT', `/api/screens/${lobby.screenId}`, { name: 'Renamed' }],
      ['DELETE', `/api/screens/${lobby.screenId}`, undefined],
      [
        'POST',
        '/api/screens/bulk',
        { selection: { by: 'group', groupId: east.id }, change: { kind: 'assign', assignment: { kind: 'none' } } },
      ],
      ['POST', '/api/screens/takeovers', { target: { kind: 'all' }, templateId: drill.id }],
      ['POST', '/api/screens/takeover-templates', { name: 'x', content: quake, minutes: 5 }],
      ['PUT', '/api/screens/alert-rules', before.rules],
    ];
    for (const [method, path, body] of writes) await refused(svc, viewer, method, path, body, 403, 'FORBIDDEN_ROLE');
    expect(await snapshot(owner)).toEqual(before);
    // no event announced either (the outbox holds every event, sent or not)
    expect((await svc.server.context.outbox.entries()).length).toBe(announced);
    expect((await manifest(svc, lobby.device)).name).toBe('Lobby');
  });

  it("an editor changes the workspace's groups and screens, and what they make is the owner's", async () => {
    const { owner, lobby, east } = await workspace();
    const editor = as(owner, 'editor');
    const west = await ok(svc, editor, 'POST', '/api/screens/groups', { name: 'West', screenIds: [lobby.screenId] });
    const groups = await ok(svc, owner, 'GET', '/api/screens/groups');
    expect(groups.map((g: { id: string }) => g.id).sort()).toEqual([east.id, west.id].sort());
    // nothing landed in the editor's own workspace
    expect(await ok(svc, { userId: editor.userId }, 'GET', '/api/screens/groups')).toEqual([]);
    await ok(svc, editor, 'PUT', `/api/screens/${lobby.screenId}`, { name: 'Lobby 2' });
    expect((await manifest(svc, lobby.device)).name).toBe('Lobby 2');
    // but the fleet itself (pairing, unpairing) and emergency messages are not an editor's
    await refused(svc, editor, 'DELETE', `/api/screens/${lobby.screenId}`, undefined, 403, 'FORBIDDEN_ROLE');
    await refused(
      svc,
      editor,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'all' }, content: quake, minutes: 5 },
      403,
      'FORBIDDEN_ROLE',
    );
    expect((await ok(svc, owner, 'GET', '/api/screens')).map((s: { id: string }) => s.id)).toEqual([lobby.screenId]);
  });

  it('a broadcaster starts and ends a takeover from a template, logged as theirs, and may not type one', async () => {
    const { owner, lobby, drill } = await workspace();
    const broadcaster = as(owner, 'broadcaster');
    await refused(
      svc,
      broadcaster,
      'POST',
      '/api/screens/takeovers',
      { target: { kind: 'all' }, content: quake, minutes: 5 },
      403,
      'FORBIDDEN_ROLE',
    );
    expect(await ok(svc, owner, 'GET', '/api/screens/takeovers')).toEqual([]);
    const t = await ok(svc, broadcaster, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      templateId: drill.id,
    });
    expect(t.screenIds).toEqual([lobby.screenId]);
    expect((await manifest(svc, lobby.device)).takeovers.map((x: { id: string }) => x.id)).toEqual([t.id]);
    await ok(svc, broadcaster, 'DELETE', `/api/screens/takeovers/${t.id}`);
    const log = await ok(svc, owner, 'GET', '/api/screens/takeovers/log');
    expect(log.map((e: { action: string; by: string }) => [e.action, e.by])).toEqual([
      ['end', broadcaster.userId],
      ['start', broadcaster.userId],
    ]);
    // templates are content: not a broadcaster's to change
    await refused(
      svc,
      broadcaster,
      'DELETE',
      `/api/screens/takeover-templates/${drill.id}`,
      undefined,
      403,
      'FORBIDDEN_ROLE',
    );
  });

  it("'owner' of another's workspace is refused, and another workspace's member acting in their own sees nothing", async () => {
    const { owner } = await workspace();
    const forged = { userId: `u-${randomUUID()}`, workspaceId: owner.userId, role: 'owner' as const };
    await refused(svc, forged, 'GET', '/api/screens', undefined, 403, 'FORBIDDEN_ROLE');
    expect(await ok(svc, { userId: forged.userId }, 'GET', '/api/screens')).toEqual([]);
  });
});

// Audit entries of screen, group and takeover changes, against the real service: each change that commits puts
// exactly one entry (who, from which address, before and after) in the outbox on audit.screens.entry.v1; a refused
// one puts none.
import { AuditEntry, subjects } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { call, from, member, pairDisplay, useService } from './helpers';

const svc = useService();

const ADDRESS = '192.0.2.44';
const as = (who: { userId: string }, method: string, path: string, body?: unknown) =>
  call(svc, who, method, path, body, from(ADDRESS));

async function entriesAbout(objectId: string): Promise<AuditEntry[]> {
  const all = await svc.server.context.outbox.entries({ subject: subjects.auditScreens });
  return all.map((e) => AuditEntry.parse(e.data)).filter((e) => e.object.id === objectId);
}

describe('audit entries of the fleet', () => {
  it('a screen setting and its assignment each make one entry with before and after; a refused change none', async () => {
    const owner = member();
    const stranger = member();
    const { screenId } = await pairDisplay(svc, owner, 'Lobby');
    const updates = async () => (await entriesAbout(screenId)).filter((e) => e.action === 'screen.updated');
    const renamed = await as(owner, 'PUT', `/api/screens/${screenId}`, { name: 'Hall', rotation: 90 });
    expect(renamed.status).toBe(200);
    let entries = await updates();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      workspaceId: owner.userId,
      actorUserId: owner.userId,
      address: ADDRESS,
      action: 'screen.updated',
      object: { type: 'screen', id: screenId },
      before: { name: 'Lobby', rotation: 0 },
      after: { name: 'Hall', rotation: 90 },
    });

    const foreign = await as(stranger, 'PUT', `/api/screens/${screenId}`, { name: 'Mine' });
    expect(foreign.status).toBe(404);
    const unknownFile = await as(owner, 'PUT', `/api/screens/${screenId}`, {
      assignment: { kind: 'file', fileId: 'no-such-file' },
    });
    expect(unknownFile.status).toBeGreaterThanOrEqual(400);
    expect(await updates()).toHaveLength(1);

    const cleared = await as(owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'none' } });
    expect(cleared.status).toBe(200);
    entries = await updates();
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
  });

  it('a group created, changed and deleted, and a takeover started and ended, each make one entry', async () => {
    const owner = member();
    const { screenId } = await pairDisplay(svc, owner, 'Door');
    const created = await as(owner, 'POST', '/api/screens/groups', { name: 'Entrance', screenIds: [screenId] });
    expect(created.status).toBe(201);
    const groupId = (created.body as { id: string }).id;
    const changed = await as(owner, 'PUT', `/api/screens/groups/${groupId}`, { name: 'Front', screenIds: [] });
    expect(changed.status).toBe(200);
    const started = await as(owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'message', title: '避難', body: '' },
      minutes: 10,
    });
    expect(started.status).toBe(201);
    const takeoverId = (started.body as { id: string }).id;
    const overlapping = await as(owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'message', title: '二つ目', body: '' },
      minutes: 10,
    });
    expect(overlapping.status).toBe(409);
    expect((await as(owner, 'DELETE', `/api/screens/takeovers/${takeoverId}`)).status).toBe(200);
    expect((await as(owner, 'DELETE', `/api/screens/groups/${groupId}`)).status).toBe(200);

    const group = await entriesAbout(groupId);
    expect(group.map((e) => e.action).sort()).toEqual(['group.created', 'group.deleted', 'group.updated']);
    expect(group.find((e) => e.action === 'group.updated')).toMatchObject({
      before: { name: 'Entrance', screenIds: [screenId] },
      after: { name: 'Front', screenIds: [] },
    });
    expect(group.find((e) => e.action === 'group.deleted')).toMatchObject({ after: null });
    const takeover = await entriesAbout(takeoverId);
    expect(takeover.map((e) => e.action).sort()).toEqual(['takeover.ended', 'takeover.started']);
    expect(takeover.find((e) => e.action === 'takeover.started')).toMatchObject({
      before: null,
      after: { target: { kind: 'all' }, endedAt: null },
    });
    const ended = takeover.find((e) => e.action === 'takeover.ended');
    expect(ended?.before).toMatchObject({ endedAt: null });
    expect(typeof ended?.after?.endedAt).toBe('string');
    // the overlapping start was refused: no entry names another takeover of this owner
    const all = (await svc.server.context.outbox.entries({ subject: subjects.auditScreens }))
      .map((e) => AuditEntry.parse(e.data))
      .filter((e) => e.workspaceId === owner.userId && e.object.type === 'takeover');
    expect(all).toHaveLength(2);
  });

  it("a bulk change makes one entry with each screen's value before and after", async () => {
    const owner = member();
    const a = await pairDisplay(svc, owner, 'A');
    const b = await pairDisplay(svc, owner, 'B');
    const res = await as(owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'ids', screenIds: [a.screenId, b.screenId] },
      change: { kind: 'set-time-zone', timeZone: 'Europe/Rome' },
    });
    expect(res.status).toBe(200);
    const { changeId } = res.body as { changeId: string };
    const entries = await entriesAbout(changeId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'bulk-change.applied',
      address: ADDRESS,
      after: { kind: 'set-time-zone', screens: { [a.screenId]: 'Europe/Rome', [b.screenId]: 'Europe/Rome' } },
    });
    const before = entries[0]?.before as { screens: Record<string, string> };
    expect(Object.keys(before.screens).sort()).toEqual([a.screenId, b.screenId].sort());
    expect(Object.values(before.screens)).not.toContain('Europe/Rome');
  });

  it('pairing and unpairing a screen, and a takeover template created, changed and deleted, each make one entry', async () => {
    const owner = member();
    const { screenId } = await pairDisplay(svc, owner, 'Kiosk');
    expect((await as(owner, 'DELETE', `/api/screens/${screenId}`)).status).toBe(200);
    const screen = await entriesAbout(screenId);
    expect(screen.map((e) => e.action).sort()).toEqual(['screen.paired', 'screen.revoked']);
    expect(screen.find((e) => e.action === 'screen.paired')).toMatchObject({ before: null, after: { name: 'Kiosk' } });
    expect(screen.find((e) => e.action === 'screen.revoked')).toMatchObject({ before: { name: 'Kiosk' }, after: null });

    const message = { kind: 'message', title: '休館', body: '' };
    const created = await as(owner, 'POST', '/api/screens/takeover-templates', {
      name: 'Closed',
      content: message,
      minutes: 60,
    });
    expect(created.status).toBe(201);
    const templateId = (created.body as { id: string }).id;
    const changed = await as(owner, 'PUT', `/api/screens/takeover-templates/${templateId}`, {
      name: 'Closed today',
      content: message,
      minutes: 120,
    });
    expect(changed.status).toBe(200);
    const foreign = await as(member(), 'DELETE', `/api/screens/takeover-templates/${templateId}`);
    expect(foreign.status).toBe(404);
    expect((await as(owner, 'DELETE', `/api/screens/takeover-templates/${templateId}`)).status).toBe(200);
    const template = await entriesAbout(templateId);
    expect(template.map((e) => e.action).sort()).toEqual([
      'takeover-template.created',
      'takeover-template.deleted',
      'takeover-template.updated',
    ]);
    expect(template.find((e) => e.action === 'takeover-template.updated')).toMatchObject({
      before: { name: 'Closed', minutes: 60 },
      after: { name: 'Closed today', minutes: 120 },
    });
  });
});

// A refused call changes nothing: calls that the caller's role may not make in a workspace (drawn over every screens
// route a role is refused, the workspace's real screen, group, template and takeover ids or random ones, valid or
// random bodies; with approval on and a proposal waiting, whose decision is refused to editors, viewers and
// broadcasters) are each answered 403 FORBIDDEN_ROLE, and afterwards every collection, the events and the mails are
// as they were (service-kit's refusal-property).
import { randomUUID } from 'node:crypto';
import { WORKSPACE_SETTINGS_BUCKET } from '@pagecast/contracts';
import { openKeyValue } from '@pagecast/service-kit';
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { describe, expect, it } from 'vitest';
import { ok } from './fleet-helpers';
import { call, member, pairDisplay, useService } from './helpers';

const svc = useService();

const quake = { kind: 'message', title: '地震発生', body: '係員の指示に従って避難してください' };

describe('refused calls', () => {
  it('change nothing: every collection, the events and the mails stay as they were', async () => {
    const owner = member();
    const lobby = await pairDisplay(svc, owner, 'Lobby');
    const east = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'East', screenIds: [lobby.screenId] });
    const drill = await ok(svc, owner, 'POST', '/api/screens/takeover-templates', {
      name: '避難訓練',
      content: quake,
      minutes: 15,
    });
    const takeover = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      templateId: drill.id,
    });
    // approval on, and an editor's change waiting: deciding it is refused to every role but owner, admin, publisher
    const kv = await openKeyValue(svc.server.context.nats, WORKSPACE_SETTINGS_BUCKET, { ttlMs: 0 });
    await kv.put(owner.userId, JSON.stringify({ approvalRequired: true, v: 1 }));
    const editor = { userId: `u-${randomUUID()}`, workspaceId: owner.userId, role: 'editor' as const };
    const waiting = await call(svc, editor, 'PUT', `/api/screens/groups/${east.id}`, { screenIds: [] });
    expect(waiting.status).toBe(202);
    const report = await refusalsChangeNothing({
      service: 'screens',
      baseUrl: svc.server.url,
      secret: svc.env.INTERNAL_SECRET ?? '',
      conn: svc.server.context.conn,
      nc: svc.server.context.nats.nc,
      workspaceId: owner.userId,
      ids: [lobby.screenId, east.id, drill.id, takeover.id, waiting.body.proposal.id],
      numRuns: 100,
    });
    console.log('[refusals] screens', JSON.stringify(report));
    expect(report.runs).toBe(100);
  }, 60_000);
});

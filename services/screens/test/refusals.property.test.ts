// A refused call changes nothing: calls that the caller's role may not make in a workspace (drawn over every screens
// route a role is refused, the workspace's real screen, group, template and takeover ids or random ones, valid or
// random bodies) are each answered 403 FORBIDDEN_ROLE, and afterwards every collection, the events and the mails are
// as they were (service-kit's refusal-property).
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from './fleet-helpers';
import { member, pairDisplay, startService, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

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
    const report = await refusalsChangeNothing({
      service: 'screens',
      baseUrl: svc.server.url,
      secret: svc.env.INTERNAL_SECRET ?? '',
      conn: svc.server.context.conn,
      nc: svc.server.context.nats.nc,
      workspaceId: owner.userId,
      ids: [lobby.screenId, east.id, drill.id, takeover.id],
      numRuns: 100,
    });
    console.log('[refusals] screens', JSON.stringify(report));
    expect(report.runs).toBe(100);
  }, 60_000);
});

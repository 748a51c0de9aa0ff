// A refused call changes nothing: calls that the caller's role may not make in a workspace (drawn over every files
// and playlists route a role is refused, the workspace's real file and playlist ids or random ones, valid or random
// bodies) are each answered 403 FORBIDDEN_ROLE, and afterwards every collection, the events and the mails are as they
// were (service-kit's refusal-property).
import { join } from 'node:path';
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  newUser,
  startService,
  type TestService,
  upload,
  waitConverted,
} from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await destroyService(svc);
});

describe('refused calls', () => {
  it('change nothing: every collection, the events and the mails stay as they were', async () => {
    const owner = newUser();
    const up = await upload(svc, owner, await fileBytes(join(corpus, 'pdf/vertical.pdf')), { title: 'Menu' });
    expect(up.status).toBe(200);
    // converted first: a file still converting changes by itself
    await waitConverted(svc, owner, up.body.id);
    const playlist = await call(svc, owner, 'POST', '/api/playlists', { name: 'Lobby' });
    expect(playlist.status).toBe(200);
    const items = await call(svc, owner, 'PUT', `/api/playlists/${playlist.body.id}/items`, { fileIds: [up.body.id] });
    expect(items.status).toBe(200);
    const report = await refusalsChangeNothing({
      service: 'file-conversion',
      baseUrl: svc.server.url,
      secret: svc.env.INTERNAL_SECRET ?? '',
      conn: svc.server.context.conn,
      nc: svc.server.context.nats.nc,
      workspaceId: owner,
      ids: [up.body.id, playlist.body.id],
      numRuns: 100,
    });
    console.log('[refusals] file-conversion', JSON.stringify(report));
    expect(report.runs).toBe(100);
  }, 120_000);
});

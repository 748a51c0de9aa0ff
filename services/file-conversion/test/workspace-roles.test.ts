// Members acting in someone else's workspace, as the gateway's signed identity names it (the workspace and their
// role there): a viewer reads the workspace's files and playlists and changes nothing; an editor uploads and edits
// there, and what they make is the workspace's (its owner's id), not their own.
import { join } from 'node:path';
import type { WorkspaceRole } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  type Json,
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

const as = (owner: string, role: WorkspaceRole) => ({ userId: newUser(), workspaceId: owner, role });
const pdf = () => fileBytes(join(corpus, 'pdf/vertical.pdf'));

async function ok(who: Parameters<typeof call>[1], method: string, path: string, body?: unknown): Promise<Json> {
  const r = await call(svc, who, method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

/** The owner's workspace as the owner reads it: its files, its playlists and their items. */
async function snapshot(owner: string) {
  const files = await ok(owner, 'GET', '/api/files');
  const playlists = await ok(owner, 'GET', '/api/playlists');
  const items: Json[] = [];
  for (const p of playlists) items.push(await ok(owner, 'GET', `/api/playlists/${p.id}/items`));
  return { files, playlists, items };
}

async function workspace() {
  const owner = newUser();
  const up = await upload(svc, owner, await pdf(), { title: 'Menu' });
  expect(up.status).toBe(200);
  // converted first: a file still converting changes by itself, and the tests compare before and after
  await waitConverted(svc, owner, up.body.id);
  const playlist = await ok(owner, 'POST', '/api/playlists', { name: 'Lobby' });
  await ok(owner, 'PUT', `/api/playlists/${playlist.id}/items`, { fileIds: [up.body.id] });
  return { owner, fileId: up.body.id as string, playlistId: playlist.id as string };
}

describe('roles in a workspace', () => {
  it("a viewer reads the workspace's files and playlists; every write is 403 FORBIDDEN_ROLE and changes nothing", async () => {
    const { owner, fileId, playlistId } = await workspace();
    const viewer = as(owner, 'viewer');
    expect((await ok(viewer, 'GET', '/api/files')).map((f: { id: string }) => f.id)).toEqual([fileId]);
    expect((await ok(viewer, 'GET', `/api/files/${fileId}`)).title).toBe('Menu');
    expect((await ok(viewer, 'GET', '/api/playlists')).map((p: { id: string }) => p.id)).toEqual([playlistId]);
    expect((await ok(viewer, 'GET', `/api/playlists/${playlistId}/items`)).map((i: Json) => i.fileId)).toEqual([
      fileId,
    ]);

    const before = await snapshot(owner);
    const announced = (await svc.server.context.outbox.entries()).length;
    const writes: Array<[string, string, unknown]> = [
      ['PUT', `/api/files/${fileId}`, { title: 'Changed' }],
      ['PUT', `/api/files/${fileId}/duration`, { duration: 30 }],
      ['PUT', `/api/files/${fileId}/publish`, { isPublished: true, price: 100 }],
      ['DELETE', `/api/files/${fileId}`, undefined],
      ['POST', '/api/playlists', { name: 'Another' }],
      ['PUT', `/api/playlists/${playlistId}/items`, { fileIds: [] }],
      ['POST', `/api/playlists/${playlistId}/items`, { fileId }],
      ['DELETE', `/api/playlists/${playlistId}/items/${fileId}`, undefined],
      ['DELETE', `/api/playlists/${playlistId}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const r = await call(svc, viewer, method, path, body);
      expect({ status: r.status, code: r.body?.code }, `${method} ${path}`).toEqual({
        status: 403,
        code: 'FORBIDDEN_ROLE',
      });
    }
    const refusedUpload = await upload(svc, viewer, await pdf(), { title: 'Sneaked in' });
    expect({ status: refusedUpload.status, code: refusedUpload.body.code }).toEqual({
      status: 403,
      code: 'FORBIDDEN_ROLE',
    });
    expect(await snapshot(owner)).toEqual(before);
    // no event announced either (the outbox holds every event, sent or not)
    expect((await svc.server.context.outbox.entries()).length).toBe(announced);
    // and nothing landed in the viewer's own workspace either
    expect(await ok(viewer.userId, 'GET', '/api/files')).toEqual([]);
  });

  it("an editor uploads and edits in the workspace, and what they make is the owner's", async () => {
    const { owner, fileId, playlistId } = await workspace();
    const editor = as(owner, 'editor');
    const up = await upload(svc, editor, await pdf(), { title: 'Specials' });
    expect(up.status).toBe(200);
    expect(up.body.userId).toBe(owner);
    const playlist = await ok(editor, 'POST', '/api/playlists', { name: 'Window' });
    expect(playlist.userId).toBe(owner);
    await ok(editor, 'PUT', `/api/playlists/${playlist.id}/items`, { fileIds: [up.body.id, fileId] });
    await ok(editor, 'PUT', `/api/files/${fileId}`, { title: 'Menu 2' });

    const after = await snapshot(owner);
    expect(after.files.map((f: { id: string; title: string }) => [f.id, f.title]).sort()).toEqual(
      [
        [fileId, 'Menu 2'],
        [up.body.id, 'Specials'],
      ].sort(),
    );
    expect(after.playlists.map((p: { id: string }) => p.id).sort()).toEqual([playlistId, playlist.id].sort());
    // the editor's own workspace holds none of it
    expect(await ok(editor.userId, 'GET', '/api/files')).toEqual([]);
    expect(await ok(editor.userId, 'GET', '/api/playlists')).toEqual([]);
    // selling the workspace's files is not an editor's
    const sell = await call(svc, editor, 'PUT', `/api/files/${fileId}/publish`, { isPublished: true, price: 100 });
    expect({ status: sell.status, code: sell.body.code }).toEqual({ status: 403, code: 'FORBIDDEN_ROLE' });
  });
});

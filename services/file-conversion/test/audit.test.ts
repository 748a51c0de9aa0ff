// Audit entries of file and playlist changes, against the real service: each change that commits puts exactly one
// entry (who, from which address, before and after) in the outbox on audit.files.entry.v1; a refused one puts none.
import { join } from 'node:path';
import { AuditEntry, subjects } from '@pagecast/contracts';
import { callService, clientAddressHeaders } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
const owner = newUser();
const stranger = newUser();
const ADDRESS = '198.51.100.23';

/** A member's call through the gateway: signed identity and signed client address. */
const callFrom = (userId: string, method: string, path: string, body?: unknown) =>
  callService(
    svc.server.url,
    svc.env.INTERNAL_SECRET ?? '',
    { userId },
    method,
    path,
    body,
    clientAddressHeaders(ADDRESS, svc.env.INTERNAL_SECRET ?? ''),
  );

/** The audit entries in the outbox (sent or not) about one object. */
async function entriesAbout(objectId: string): Promise<AuditEntry[]> {
  const all = await svc.server.context.outbox.entries({ subject: subjects.auditFiles });
  return all.map((e) => AuditEntry.parse(e.data)).filter((e) => e.object.id === objectId);
}
const one = (entries: AuditEntry[], action: string) => {
  const found = entries.filter((e) => e.action === action);
  expect(found, action).toHaveLength(1);
  return found[0] as AuditEntry;
};

let fileId: string;

beforeAll(async () => {
  svc = await startService();
  const pdf = await fileBytes(join(corpus, 'pdf/vertical.pdf'));
  const up = await upload(svc, owner, pdf, { title: 'Winter menu' });
  expect(up.status).toBe(200);
  fileId = up.body.id as string;
});

afterAll(async () => {
  if (svc) await destroyService(svc);
});

describe('file changes', () => {
  it('an upload is recorded as created: nothing before, the file after', async () => {
    const entries = await entriesAbout(fileId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      workspaceId: owner,
      actorUserId: owner,
      action: 'file.created',
      object: { type: 'file', id: fileId },
      before: null,
      after: { fileId, title: 'Winter menu' },
    });
  });

  it('a rename makes exactly one entry with the title before and after, who and from where', async () => {
    const before = (await entriesAbout(fileId)).length;
    const res = await callFrom(owner, 'PUT', `/api/files/${fileId}`, { title: 'Spring menu' });
    expect(res.status).toBe(200);
    const entries = await entriesAbout(fileId);
    expect(entries).toHaveLength(before + 1);
    const renamed = one(entries, 'file.updated');
    expect(renamed).toMatchObject({
      workspaceId: owner,
      actorUserId: owner,
      address: ADDRESS,
      action: 'file.updated',
      before: { title: 'Winter menu' },
      after: { title: 'Spring menu' },
    });
    // codes and values only: the snapshot is the file's fields
    expect(Object.keys(renamed.after ?? {})).not.toContain('message');
  });

  it('a refused change makes no entry: another member, a bad value', async () => {
    const before = (await entriesAbout(fileId)).length;
    const foreign = await callFrom(stranger, 'PUT', `/api/files/${fileId}`, { title: 'Taken' });
    expect([foreign.status, (foreign.body as { code: string }).code]).toEqual([404, 'FILE_NOT_FOUND']);
    const invalid = await callFrom(owner, 'PUT', `/api/files/${fileId}/duration`, { displayDuration: -5 });
    expect(invalid.status).toBe(400);
    const gone = await callFrom(stranger, 'DELETE', `/api/files/${fileId}`);
    expect(gone.status).toBe(404);
    expect(await entriesAbout(fileId)).toHaveLength(before);
  });
});

describe('publish settings', () => {
  it('publishing and unpublishing each make one entry with the price and the stated copyright before and after', async () => {
    await waitConverted(svc, owner, fileId);
    const before = (await entriesAbout(fileId)).length;
    const noAuthor = await callFrom(owner, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 5000,
    });
    expect(noAuthor.status).toBe(400);
    const pub = await callFrom(owner, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 5000,
      copyrightInfo: { authorName: '山田太郎', companyName: '山田商店' },
    });
    expect(pub.status).toBe(200);
    const off = await callFrom(owner, 'PUT', `/api/files/${fileId}/publish`, { isPublished: false });
    expect(off.status).toBe(200);
    const entries = await entriesAbout(fileId);
    expect(entries).toHaveLength(before + 2);
    expect(one(entries, 'file.published')).toMatchObject({
      actorUserId: owner,
      address: ADDRESS,
      before: { isPublished: false, publishPrice: null, copyright: null },
      after: {
        isPublished: true,
        publishPrice: 5000,
        copyright: { authorName: '山田太郎', companyName: '山田商店', copyrightText: null },
      },
    });
    expect(one(entries, 'file.unpublished')).toMatchObject({
      before: { isPublished: true, publishPrice: 5000, copyright: { authorName: '山田太郎' } },
      after: { isPublished: false, copyright: { authorName: '山田太郎' } },
    });
  });
});

describe('playlist changes', () => {
  it('create, save items, remove and add an item, and delete each make one entry with before and after; a refused save none', async () => {
    const created = await callFrom(owner, 'POST', '/api/playlists', { name: 'Lobby' });
    expect(created.status).toBe(200);
    const playlistId = (created.body as { id: string }).id;
    const saved = await callFrom(owner, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [fileId] });
    expect(saved.status).toBe(200);
    const refused = await callFrom(stranger, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [fileId] });
    expect(refused.status).toBe(404);
    const removed = await callFrom(owner, 'DELETE', `/api/playlists/${playlistId}/items/${fileId}`);
    expect(removed.status).toBe(200);
    const absent = await callFrom(owner, 'DELETE', `/api/playlists/${playlistId}/items/${fileId}`);
    expect(absent.status).toBe(200); // nothing to remove: no change, no entry
    const added = await callFrom(owner, 'POST', `/api/playlists/${playlistId}/items`, { fileId, position: 0 });
    expect(added.status).toBe(200);
    const deleted = await callFrom(owner, 'DELETE', `/api/playlists/${playlistId}`);
    expect(deleted.status).toBe(200);

    const entries = await entriesAbout(playlistId);
    expect(entries).toHaveLength(5);
    expect(one(entries, 'playlist.created')).toMatchObject({
      before: null,
      after: { name: 'Lobby', items: [], version: 1 },
    });
    expect(one(entries, 'playlist.items-saved')).toMatchObject({
      before: { items: [], version: 1 },
      after: { items: [{ fileId }], version: 2 },
      address: ADDRESS,
    });
    expect(one(entries, 'playlist.deleted')).toMatchObject({
      before: { name: 'Lobby', items: [{ fileId }] },
      after: null,
    });
    expect(one(entries, 'playlist.item-removed')).toMatchObject({
      before: { items: [{ fileId }], version: 2 },
      after: { items: [], version: 3 },
    });
    expect(one(entries, 'playlist.item-added')).toMatchObject({
      before: { items: [] },
      after: { items: [{ fileId }] },
    });
    expect(new Set(entries.map((e) => e.id)).size).toBe(5);
  });

  it('a file deleted is recorded with what it was and nothing after', async () => {
    const res = await callFrom(owner, 'DELETE', `/api/files/${fileId}`);
    expect(res.status).toBe(200);
    expect(one(await entriesAbout(fileId), 'file.deleted')).toMatchObject({
      action: 'file.deleted',
      before: { title: 'Spring menu' },
      after: null,
    });
  });
});

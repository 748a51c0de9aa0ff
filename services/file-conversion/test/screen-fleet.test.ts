// One change to many screens (screens.fleet.changed.v1): the devices of the screens it names may read the
// content it names (a bulk assignment, a group's playlist, a takeover's file), others and revoked screens may not, and
// a screen's own next change still says whole what its device may read.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { signDeviceIdentityHeader } from '@pagecast/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  newUser,
  publishEvent,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
const owner = newUser();
let fileId: string;
let playlistId: string;
const screen = () => ({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner });
const named = screen();
const neverMet = screen();
const notNamed = screen();
const revoked = screen();

const status = async (as: ReturnType<typeof screen>, path: string) =>
  (
    await fetch(`${svc.server.url}${path}`, {
      headers: { 'x-pagecast-identity': signDeviceIdentityHeader(as, svc.env.INTERNAL_SECRET ?? '') },
    })
  ).status;

const changed = (s: ReturnType<typeof screen>, fileIds: string[], playlistIds: string[] = []) =>
  publishEvent(svc, 'screens.screen.changed.v1', {
    screenId: s.screenId,
    ownerId: owner,
    changedAt: new Date().toISOString(),
    playlistIds,
    fileIds,
  });

beforeAll(async () => {
  svc = await startService();
  const up = await upload(svc, owner, await fileBytes(join(corpus, 'pdf', 'vertical.pdf')), { title: 'alert' });
  expect(up.status).toBe(200);
  fileId = up.body.id as string;
  await waitConverted(svc, owner, fileId);
  playlistId = (await call(svc, owner, 'POST', '/api/playlists', { name: 'Group list' })).body.id as string;
  await call(svc, owner, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [fileId] });
  for (const s of [named, notNamed, revoked]) await changed(s, []);
  await publishEvent(svc, 'screens.screen.revoked.v1', {
    screenId: revoked.screenId,
    deviceId: revoked.deviceId,
    ownerId: owner,
    revokedAt: new Date().toISOString(),
  });
  await waitFor('screens known', async () => (await status(named, `/api/files/${fileId}`)) === 404);
}, 180_000);

afterAll(async () => {
  if (svc) await destroyService(svc);
});

describe('a fleet change', () => {
  it('lets the named screens read its content, and nobody else', async () => {
    await publishEvent(svc, 'screens.fleet.changed.v1', {
      changeId: randomUUID(),
      ownerId: owner,
      changedAt: new Date().toISOString(),
      kind: 'group-changed',
      screenIds: [named.screenId, neverMet.screenId, revoked.screenId],
      groupId: 'g-1',
      content: { playlistIds: [playlistId], fileIds: [fileId] },
    });
    await waitFor('content granted', async () => (await status(named, `/api/files/${fileId}`)) === 200);
    expect(await status(named, `/api/playlists/${playlistId}/items`)).toBe(200);
    expect(await status(neverMet, `/api/files/${fileId}`)).toBe(200);
    expect(await status(notNamed, `/api/files/${fileId}`)).toBe(404);
    expect(await status(revoked, `/api/files/${fileId}`)).not.toBe(200);

    // the screen's own next change says whole what it may read
    await changed(named, []);
    await waitFor('replaced', async () => (await status(named, `/api/files/${fileId}`)) === 404);
  });
});

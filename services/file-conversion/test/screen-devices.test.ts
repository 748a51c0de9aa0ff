// Paired displays reading through file-conversion: a device identity reads, as its screen's owner,
// exactly the playlists and files assigned to its screen (from screens' events) and nothing else, and never
// makes a member call.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createEvent } from '@pagecast/contracts';
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
let inPlaylist: string;
let assignedFile: string;
let other: string;
let playlistId: string;
let otherPlaylist: string;
const screenId = randomUUID();
const device = { deviceId: randomUUID(), screenId, ownerId: owner };

async function uploaded(title: string, pdf = 'vertical.pdf'): Promise<string> {
  const up = await upload(svc, owner, await fileBytes(join(corpus, 'pdf', pdf)), { title });
  expect(up.status).toBe(200);
  await waitConverted(svc, owner, up.body.id as string);
  return up.body.id as string;
}

/** A call with the device's identity header, as the gateway passes it. */
async function asDevice(path: string, method = 'GET', as: typeof device = device) {
  const res = await fetch(`${svc.server.url}${path}`, {
    method,
    headers: { 'x-pagecast-identity': signDeviceIdentityHeader(as, svc.env.INTERNAL_SECRET ?? '') },
  });
  const text = await res.text();
  let body: { code?: string } & Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // an image
  }
  // images are shared by content hash: the other file's image must differ from the assigned ones'
  return { status: res.status, body };
}

beforeAll(async () => {
  svc = await startService();
  [inPlaylist, assignedFile, other] = await Promise.all([
    uploaded('in playlist'),
    uploaded('assigned'),
    uploaded('other', 'cmykjpeg.pdf'),
  ]);
  const p = await call(svc, owner, 'POST', '/api/playlists', { name: 'Lobby' });
  playlistId = p.body.id;
  await call(svc, owner, 'PUT', `/api/playlists/${playlistId}/items`, { fileIds: [inPlaylist] });
  otherPlaylist = (await call(svc, owner, 'POST', '/api/playlists', { name: 'Other' })).body.id;
  await publishEvent(svc, 'screens.screen.changed.v1', {
    screenId,
    ownerId: owner,
    changedAt: new Date().toISOString(),
    playlistIds: [playlistId],
    fileIds: [assignedFile],
  });
  await waitFor('screen content applied', async () => (await asDevice(`/api/files/${assignedFile}`)).status === 200);
}, 180_000);

afterAll(async () => {
  if (svc) await destroyService(svc);
});

describe('a paired display reading its content', () => {
  it('reads its playlist, the files in it, the assigned file, their pages and images', async () => {
    const items = await asDevice(`/api/playlists/${playlistId}/items`);
    expect(items.status).toBe(200);
    expect((items.body as unknown as Array<{ fileId: string }>).map((i) => i.fileId)).toEqual([inPlaylist]);
    for (const id of [inPlaylist, assignedFile]) {
      expect((await asDevice(`/api/files/${id}`)).status).toBe(200);
      const pages = await asDevice(`/api/files/${id}/pages`);
      expect(pages.status).toBe(200);
      const first = (pages.body as unknown as Array<{ imagePath: string }>)[0];
      expect(first?.imagePath).toMatch(/^\/media\//);
      expect((await asDevice(first?.imagePath ?? '/media/none')).status).toBe(200);
      // the gateway's check (no bytes): as the screen's owner, remembered by the owner's rule
      const check = await asDevice(`/internal/media-access/${first?.imagePath.slice('/media/'.length)}`);
      expect(check.status).toBe(200);
      expect(check.body.access).toBe('owner');
      expect(check.body.maxAgeMs).toBeGreaterThan(3_000);
      expect(check.body.maxAgeMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('reads nothing else of its owner: another file, its pages and images, another playlist', async () => {
    expect((await asDevice(`/api/files/${other}`)).status).toBe(404);
    expect((await asDevice(`/api/files/${other}/pages`)).status).toBe(404);
    const page = (await call(svc, owner, 'GET', `/api/files/${other}/pages`)).body[0] as { imagePath: string };
    expect((await asDevice(page.imagePath)).status).toBe(404);
    const check = await asDevice(`/internal/media-access/${page.imagePath.slice('/media/'.length)}`);
    expect(check).toMatchObject({ status: 200, body: { access: null } });
    expect(check.body.maxAgeMs).toBeLessThanOrEqual(2_000);
    expect((await asDevice(`/api/playlists/${otherPlaylist}/items`)).status).toBe(404);
  });

  it('makes no member call', async () => {
    for (const [method, path] of [
      ['GET', '/api/files'],
      ['GET', '/api/playlists'],
      ['DELETE', `/api/files/${assignedFile}`],
      ['GET', '/api/dashboard/stats'],
    ] as const) {
      const res = await asDevice(path, method);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('DEVICE_NOT_ALLOWED');
    }
    expect((await call(svc, owner, 'GET', `/api/files/${assignedFile}`)).status).toBe(200);
  });

  it('reads the images of a file assigned a moment ago, and stops at once when it is taken off', async () => {
    const otherImage = ((await call(svc, owner, 'GET', `/api/files/${other}/pages`)).body[0] as { imagePath: string })
      .imagePath;
    const assignedImage = (
      (await call(svc, owner, 'GET', `/api/files/${assignedFile}/pages`)).body[0] as { imagePath: string }
    ).imagePath;
    // what this screen may show is remembered now, without the other file
    expect((await asDevice(assignedImage)).status).toBe(200);
    expect((await asDevice(otherImage)).status).toBe(404);
    const assign = async (fileIds: string[]) =>
      publishEvent(svc, 'screens.screen.changed.v1', {
        screenId,
        ownerId: owner,
        changedAt: new Date().toISOString(),
        playlistIds: [playlistId],
        fileIds,
      });
    await assign([assignedFile, other]);
    await waitFor('other file assigned', async () => (await asDevice(`/api/files/${other}`)).status === 200);
    expect((await asDevice(otherImage)).status).toBe(200);
    await assign([assignedFile]);
    // watched in the read model itself: asking as the device until it refuses would wait out any memo
    const content = svc.server.context.conn.collection<{ _id: string; fileIds: string[] }>('screen_content');
    await waitFor('other file taken off', async () => {
      const record = await content.findOne({ _id: screenId });
      return record !== null && !record.fileIds.includes(other);
    });
    // the screen was remembered with the other file a moment ago: not past the change
    expect((await asDevice(otherImage)).status).toBe(404);
    expect((await asDevice(`/api/files/${other}`)).status).toBe(404);
    expect((await asDevice(assignedImage)).status).toBe(200);
  });

  it("reads an image another member's file showed first, once its own copy is converted (no stale refusal)", async () => {
    // the images of vertical.pdf were checked above: which files show them is remembered briefly
    const page = (await call(svc, owner, 'GET', `/api/files/${assignedFile}/pages`)).body[0] as { imagePath: string };
    expect((await asDevice(page.imagePath)).status).toBe(200);
    const second = newUser();
    const up = await upload(svc, second, await fileBytes(join(corpus, 'pdf', 'vertical.pdf')), { title: 'copy' });
    await waitConverted(svc, second, up.body.id as string);
    const secondScreen = { deviceId: randomUUID(), screenId: randomUUID(), ownerId: second };
    await publishEvent(svc, 'screens.screen.changed.v1', {
      screenId: secondScreen.screenId,
      ownerId: second,
      changedAt: new Date().toISOString(),
      playlistIds: [],
      fileIds: [up.body.id],
    });
    await waitFor(
      'second screen content applied',
      async () => (await asDevice(`/api/files/${up.body.id}`, 'GET', secondScreen)).status === 200,
    );
    const copy = (await call(svc, second, 'GET', `/api/files/${up.body.id}/pages`)).body[0] as { imagePath: string };
    expect(copy.imagePath).toBe(page.imagePath);
    expect((await asDevice(copy.imagePath, 'GET', secondScreen)).status).toBe(200);
    // and the first screen still may not read the second member's file
    expect((await asDevice(`/api/files/${up.body.id}`)).status).toBe(404);
  });

  it('reads nothing once its screen is unpaired, even if an older change arrives late', async () => {
    await publishEvent(svc, 'screens.screen.revoked.v1', {
      screenId,
      deviceId: device.deviceId,
      ownerId: owner,
      revokedAt: new Date().toISOString(),
    });
    await waitFor('revocation applied', async () => (await asDevice(`/api/files/${assignedFile}`)).status === 404);
    const late = createEvent('screens.screen.changed.v1', {
      screenId,
      ownerId: owner,
      changedAt: new Date(Date.now() - 60_000).toISOString(),
      playlistIds: [playlistId],
      fileIds: [assignedFile],
    });
    const { js, jsm } = svc.server.context.nats;
    const { seq } = await js.publish(late.type, JSON.stringify(late), { msgID: late.id });
    // the late change handled: the service's screens durable has acknowledged it (it acks after its write)
    await waitFor('the late change handled', async () => {
      const info = await jsm.consumers.info('SCREENS', `${svc.settings.CONSUMER_PREFIX}-screens`);
      return info.ack_floor.stream_seq >= seq;
    });
    expect((await asDevice(`/api/playlists/${playlistId}/items`)).status).toBe(404);
  });
});

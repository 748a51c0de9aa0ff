import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import type { FileDoc } from '../src/data';
import { storageKeys } from '../src/domain';
import { backfillPreviewClips, clipBackfill } from '../src/workers';
import {
  call,
  destroyService,
  newUser,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
let dir: string;
let videoBytes: Buffer;
const seller = newUser();
const buyer = newUser();

beforeAll(async () => {
  svc = await startService();
  dir = await mkdtemp(join(tmpdir(), 'pagecast-clip-backfill-'));
  videoBytes = await readFile(makeVideoCorpus(dir)['h264-aac.mp4'] as string);
}, 120_000);
afterAll(async () => {
  await destroyService(svc);
  await rm(dir, { recursive: true, force: true });
});

const files = () => svc.server.context.data.models.files;
const stored = (id: string) => files().findById(id).lean<FileDoc>();
/** Only this test's files: a sweep takes any file of the database, and each test's own are checked. */
const sweep = () => backfillPreviewClips(svc.server.context, { ...clipBackfill, graceMs: 0, leaseMs: 0, perSweep: 20 });

/** A converted video on sale whose clip is gone, as one converted before clips were made (an hour ago). */
async function videoWithoutClip(title: string): Promise<string> {
  const up = await upload(svc, seller, { bytes: videoBytes, name: 'shop.mp4' }, { title });
  const id = up.body.id as string;
  await waitConverted(svc, seller, id);
  // the conversion's own clip first, so that it does not land after the reset below
  await waitFor('clip at conversion', async () => (await stored(id))?.video?.preview);
  await files().updateOne(
    { _id: id },
    {
      $set: { 'video.preview': null, 'conversion.finishedAt': new Date(Date.now() - 3_600_000) },
      $unset: { 'video.clipAttempts': '', 'video.clipTriedAt': '' },
    },
  );
  await svc.server.context.data.storage.remove([storageKeys.videoPreview(id)]);
  const pub = await call(svc, seller, 'PUT', `/api/files/${id}/publish`, {
    isPublished: true,
    publishPrice: 3000,
    copyrightInfo: { authorName: 'Seller' },
  });
  expect(pub.status).toBe(200);
  return id;
}

describe('the preview clip backfill', () => {
  it('gives a published video without a clip its clip, which the preview then names', async () => {
    const id = await videoWithoutClip('Old video');
    const before = await call(svc, buyer, 'GET', `/api/files/${id}/preview`);
    expect(before.body.video ?? null).toBeNull();

    await sweep();
    const file = await stored(id);
    expect(file?.video?.preview).toMatchObject({ mimeType: 'video/mp4', width: 320, height: 240 });
    expect(file?.video?.clipAttempts).toBe(1);
    const clip = await svc.server.context.data.storage.getBuffer(storageKeys.videoPreview(id));
    expect(clip?.length).toBe(file?.video?.preview?.bytes);
    const after = await call(svc, buyer, 'GET', `/api/files/${id}/preview`);
    expect(after.body.video).toMatchObject({ url: `/media/video/${id}/preview` });

    // made: the next sweep leaves it
    await sweep();
    expect((await stored(id))?.video?.clipAttempts).toBe(1);
  });

  it('stops trying a video whose clip always fails after its bound', async () => {
    const id = await videoWithoutClip('Broken video');
    // the stored video is gone: every try fails
    await svc.server.context.data.storage.remove([storageKeys.video(id)]);
    for (let i = 0; i < clipBackfill.maxAttempts + 2; i++) await sweep();
    const file = await stored(id);
    expect(file?.video?.preview ?? null).toBeNull();
    expect(file?.video?.clipAttempts).toBe(clipBackfill.maxAttempts);
  });
});

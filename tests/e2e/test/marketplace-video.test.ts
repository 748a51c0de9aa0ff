// A video on sale in Chromium against the whole stack: A uploads a 12 s video and puts it on sale; B, a member
// without a licence, opens its preview in the marketplace and sees the watermarked clip play (at most 10 s, at most
// 360p, its currentTime advancing), while the video itself stays refused to B.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from './browser';
import { type Api, signedInMember, until } from './player-helpers';
import { signedInBuyer } from './steps';

const RUN = Math.random().toString(36).slice(2, 8);
const TITLE = `店頭動画 ${RUN}`;

let dir: string;
let seller: Api;
let fileId: string;
let session: Session;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-sale-video-'));
  const source = path.join(dir, 'shop.mp4');
  const made = spawnSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25:d=12'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', source],
  ]);
  expect(made.status, String(made.stderr)).toBe(0);
  seller = await signedInMember();
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(source)], { type: 'video/mp4' }), 'shop.mp4');
  form.append('title', TITLE);
  fileId = (await seller.json<{ id: string }>('POST', '/api/files/upload', form)).id;
  await until(
    'video converted',
    async () => (await seller.json<{ status: string }>('GET', `/api/files/${fileId}`)).status !== 'processing',
    90_000,
    250,
  );
  await seller.json('PUT', `/api/files/${fileId}/publish`, {
    isPublished: true,
    publishPrice: 3000,
    copyrightInfo: { authorName: '山田 花子' },
  });
  // the conversion job makes the clip right after the video became playable
  await until(
    'preview clip made',
    async () => Boolean((await seller.json<{ video?: unknown }>('GET', `/api/files/${fileId}/preview`)).video),
    60_000,
    250,
  );
  ({ session, page } = await signedInBuyer());
}, 180_000);

afterAll(async () => {
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a video on sale', () => {
  it('B previews it: the watermarked clip plays, at most 10 s and 360p; the video itself is refused', async () => {
    await page.goto('/marketplace');
    await page.getByTestId('marketplace-page').waitFor();
    await page.getByTestId('market-search').fill(RUN);
    const card = page.locator(`[data-testid="market-card"][data-file-id="${fileId}"]`);
    await card.waitFor({ timeout: 15_000 });
    await card.getByTestId('market-preview-open').click();
    const video = page.getByTestId('market-preview-video');
    await video.waitFor({ timeout: 15_000 });
    expect(await video.getAttribute('src')).toBe(`/media/video/${fileId}/preview`);
    const state = () =>
      video.evaluate((v: HTMLVideoElement) => ({
        currentTime: v.currentTime,
        duration: v.duration,
        width: v.videoWidth,
        height: v.videoHeight,
        muted: v.muted,
        error: v.error?.code ?? null,
      }));
    // muted autoplay: the clip plays on its own, and its time advances
    await expect.poll(async () => (await state()).currentTime, { timeout: 15_000 }).toBeGreaterThan(0.5);
    const s = await state();
    expect(s).toMatchObject({ error: null, muted: true, width: 640, height: 360 });
    expect(s.duration).toBeLessThanOrEqual(10.1);
    expect(s.duration).toBeGreaterThan(9);
    // B holds no licence: the full video is not sent, whatever B asks
    const cookie = (await session.context.cookies()).find((c) => c.name === 'pc_session');
    const full = await page.request.get(`/media/video/${fileId}`, {
      headers: { Range: 'bytes=0-99', ...(cookie ? { cookie: `pc_session=${cookie.value}` } : {}) },
    });
    expect(full.status()).toBe(404);
  });
});

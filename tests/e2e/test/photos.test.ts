// Photos end to end: a member uploads a photo (EXIF orientation 6, GPS in its EXIF) through File management's
// dialog, sees it converted with its badge and dimensions, adds it to a playlist after a three-page PDF and the
// player draws it upright for its own seconds between the document's pages. Screenshots of the card in ja, en, fr;
// axe finds nothing serious on the card (ja) nor the upload dialog over it (fr).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaCorpus } from '../../../scripts/media-corpus.mjs';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  playerState,
  recordPlayback,
  signedInMember,
  type UploadedFile,
  uploadPdf,
  until,
  waitForSteps,
} from './player-helpers';
import { seriousViolations } from './screens';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data/screenshots');
const TITLE = 'Shop photo';

let api: Api;
let dir: string;
let media: Record<string, string>;
let three: UploadedFile; // vertical.pdf, 3 pages, 1 s each
let photoId: string;
let session: PlayerBrowser | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-photos-'));
  mkdirSync(screenshots, { recursive: true });
  [media, api] = await Promise.all([makeMediaCorpus(dir), signedInMember()]);
  three = await uploadPdf(api, 'vertical.pdf', 'Three pages', 1);
}, 180_000);
afterAll(async () => {
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

const card = (page: Page) => page.locator(`[data-testid="file-card"][data-title="${TITLE}"]`);

describe('a photo', () => {
  it('is uploaded through the dialog and shows in File management with its badge and dimensions', async () => {
    session = await openPlayerBrowser(api);
    const { page } = session;
    await page.goto('/files');
    await page.getByTestId('files-upload').click();
    await page.getByTestId('upload-dialog').waitFor();
    expect(await page.getByRole('dialog').textContent()).toContain('写真（JPEG、PNG、WebP、GIF、HEIC、AVIF）');
    await page.getByTestId('upload-input').setInputFiles(media['exif-rotated-gps.jpg'] as string);
    await page.getByTestId('upload-selected').waitFor();
    await page.getByLabel('タイトル').fill(TITLE);
    await page.getByLabel('表示時間（秒 / ページ）').fill('3');
    await page.getByTestId('upload-submit').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'detached', timeout: 45_000 });

    const photo = card(page);
    await photo.waitFor();
    await expect.poll(() => photo.getByTestId('file-status').textContent(), { timeout: 45_000 }).toBe('非公開');
    expect(await photo.getByTestId('file-kind').textContent()).toBe('写真 · JPEG');
    // stored 400 x 200 with orientation 6: shown 200 x 400
    expect(await photo.getByTestId('file-dimensions').textContent()).toBe('200 × 400 ピクセル');
    expect(await photo.getByTestId('file-duration').textContent()).toBe('3 秒');
    await until('thumbnail drawn', () =>
      photo.locator('.pf-card__thumb img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    );
    photoId = (await photo.getAttribute('data-file-id')) ?? '';
    expect(photoId).not.toBe('');
    await page.screenshot({ path: path.join(screenshots, 'photos-files-ja.png') });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('plays in a playlist between document pages, drawn upright, for its own seconds', async () => {
    expect(photoId).not.toBe('');
    const pages = await api.json<{ imagePath: string; width: number; height: number }[]>(
      'GET',
      `/api/files/${photoId}/pages`,
    );
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ width: 960, height: 1920 });
    const playlistId = await createPlaylist(api, 'Shop', [three.id, photoId]);
    session ??= await openPlayerBrowser(api);
    const { page } = session;
    await page.goto(`/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.locator('[data-player="signage"]').waitFor();
    await recordPlayback(page);
    const code = (s: { fileId: string; page: number }) =>
      `${s.fileId === three.id ? 'T' : s.fileId === photoId ? 'P' : '?'}${s.page}`;

    // while the photo is on screen, the image drawn is its page, red (the left half of the stored pixels) on top
    await until('photo on screen', async () => (await playerState(page)).fileId === photoId, 30_000, 50);
    const state = await playerState(page);
    expect(state.frontSrc).toContain(pages[0]?.imagePath);
    await until('photo decoded', async () => (await playerState(page)).imageShown, 5_000, 50);
    const drawn = await page.locator('img[data-front="true"]').evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d') as CanvasRenderingContext2D;
      g.drawImage(img, 0, 0);
      const at = (y: number) => [...g.getImageData(img.naturalWidth / 2, y, 1, 1).data.slice(0, 3)];
      return { width: img.naturalWidth, height: img.naturalHeight, top: at(50), bottom: at(img.naturalHeight - 50) };
    });
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 960, height: 1920 });
    expect(drawn.top[0]).toBeGreaterThan(200);
    expect(drawn.top[2]).toBeLessThan(60);
    expect(drawn.bottom[2]).toBeGreaterThan(200);
    expect(drawn.bottom[0]).toBeLessThan(60);

    // the order wraps document, photo, document; the photo stays its 3 seconds, a document page its 1
    const { steps, blankFrames } = await waitForSteps(
      page,
      (s) => {
        const codes = s.map(code);
        const at = codes.indexOf('T0');
        return at !== -1 && codes.slice(at).includes('P0') && codes.lastIndexOf('T0') > codes.indexOf('P0');
      },
      30_000,
    );
    const seq = steps.map(code);
    const start = seq.indexOf('T0');
    expect(seq.slice(start, start + 5)).toEqual(['T0', 'T1', 'T2', 'P0', 'T0']);
    const shownMs = (steps[start + 4]?.at ?? 0) - (steps[start + 3]?.at ?? 0);
    expect(shownMs).toBeGreaterThan(2_500);
    expect(shownMs).toBeLessThan(4_500);
    expect(blankFrames).toBe(0);
  });

  it('has its card in English and French too (screenshots)', async () => {
    for (const [locale, badge, dimensions] of [
      ['en-US', 'Photo · JPEG', '200 × 400 px'],
      ['fr-FR', 'Photo · JPEG', '200 × 400 px'],
    ] as const) {
      const other = await openPlayerBrowser(api, { locale });
      try {
        await other.page.goto('/files');
        const photo = card(other.page);
        await photo.waitFor();
        expect(await photo.getByTestId('file-kind').textContent()).toBe(badge);
        expect(await photo.getByTestId('file-dimensions').textContent()).toBe(dimensions);
        await other.page.screenshot({ path: path.join(screenshots, `photos-files-${locale.slice(0, 2)}.png`) });
        await other.page.getByTestId('files-upload').click();
        await other.page.getByTestId('upload-dialog').waitFor();
        // the dialog and its overlay fade in: the screenshot waits for the finite animations to end
        await other.page.evaluate(() =>
          Promise.all(
            document
              .getAnimations()
              .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
              .map((a) => a.finished),
          ),
        );
        await other.page.screenshot({ path: path.join(screenshots, `photos-upload-${locale.slice(0, 2)}.png`) });
        // the card and the dialog's new words keep axe's serious findings at none (French: the longest texts)
        if (locale === 'fr-FR') expect(await seriousViolations(other.page)).toEqual([]);
      } finally {
        await other.close();
      }
    }
  });
});

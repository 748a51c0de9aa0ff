// A video through File management's dialog: the dialog sends it resumable (tus). Its first PATCH has its connection
// reset: the dialog says it is reconnecting, asks the server where the upload stands (HEAD) and goes on by itself; on
// a slow connection (Chromium's network emulation) it shows the bar and the time left; the video is converted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import { type Api, openPlayerBrowser, type PlayerBrowser, signedInMember, until } from './player-helpers';

const TITLE = 'Slow shop video';
let api: Api;
let dir: string;
let videos: Record<string, string>;
let session: PlayerBrowser | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-resumable-'));
  videos = makeVideoCorpus(dir);
  api = await signedInMember();
}, 120_000);
afterAll(async () => {
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a video uploaded through the dialog', () => {
  it('shows its progress and time left, survives a dropped connection and is converted', async () => {
    // service workers off, so that page.route sees the page's own calls
    session = await openPlayerBrowser(api, { serviceWorkers: 'block' });
    const { page } = session;
    await page.goto('/files');
    await page.getByTestId('files-upload').click();
    await page.getByTestId('upload-dialog').waitFor();
    await page.getByTestId('upload-input').setInputFiles(videos['h264-aac.mp4'] as string);
    await page.getByTestId('upload-selected').waitFor();
    await page.getByLabel('タイトル').fill(TITLE);

    // about 20 KB/s up: the video (about 200 KB) takes seconds
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 20 * 1024,
    });
    const tusCalls: string[] = [];
    let dropped = false;
    let heldHead = false;
    await page.route('**/api/files/uploads/*', async (route) => {
      const method = route.request().method();
      tusCalls.push(method);
      if (method === 'PATCH' && !dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      if (method === 'HEAD' && !heldHead) {
        // held a moment, so the reconnecting message can be seen
        heldHead = true;
        await new Promise((r) => setTimeout(r, 2000));
      }
      return route.continue();
    });
    await page.getByTestId('upload-submit').click();

    const timeLeft = page.getByTestId('upload-time-left');
    await until('reconnecting shown', async () => ((await timeLeft.textContent()) ?? '').includes('接続が切れました'));
    await page.getByTestId('upload-progress').waitFor();
    await until('time left shown', async () => /残り約\d+(秒|分)/.test((await timeLeft.textContent()) ?? ''), 30_000);

    await page.getByTestId('upload-dialog').waitFor({ state: 'detached', timeout: 60_000 });
    // the dropped PATCH, then a HEAD that asked where the upload stood, then the PATCH that finished it
    expect(tusCalls).toEqual(['PATCH', 'HEAD', 'PATCH']);

    const card = page.locator(`[data-testid="file-card"][data-title="${TITLE}"]`);
    await card.waitFor();
    await expect.poll(() => card.getByTestId('file-status').textContent(), { timeout: 60_000 }).toBe('非公開');
    expect(await card.getByTestId('file-kind').textContent()).toContain('動画');
    const files = await api.json<{ title: string; kind: string; sizeBytes: number }[]>('GET', '/api/files');
    expect(files.find((f) => f.title === TITLE)).toMatchObject({ kind: 'video' });
  });
});

// A paired display keeps its videos for a network cut: its service worker fetches each assigned video whole in the
// background (once, not through the player's range requests) beside the page images, and answers the <video>
// element's byte ranges from that copy. A display plays a three-page document; a clip joins its playlist after it,
// is kept while the pages show, and the network is cut before the clip's turn: the clip then plays from its start,
// its currentTime advancing, every range answered by the worker, and the document comes after it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Response as PwResponse, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  signedInMember,
  type UploadedFile,
  uploadPdf,
  until,
} from './player-helpers';

let api: Api;
let dir: string;
let doc: UploadedFile;
let clip: string;
let display: PlayerBrowser | undefined;
/** the display's open sockets; once its network is cut, new ones close at once (screens-health.test.ts) */
const sockets = new Set<WebSocketRoute>();
let networkCut = false;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-offline-video-'));
  const videos = makeVideoCorpus(dir) as Record<string, string>;
  api = await signedInMember();
  // three pages of 8 s: the clip is kept, and the network cut, before the clip's element is mounted after them
  doc = await uploadPdf(api, 'vertical.pdf', 'Three pages', 8);
  const form = new FormData();
  const file = videos['h264-aac.mp4'] as string;
  form.append('pdf', new Blob([readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
  form.append('title', 'Shop clip');
  clip = (await api.json<{ id: string }>('POST', '/api/files/upload', form)).id;
  await until(
    'the clip converted',
    async () => {
      const now = await api.json<{ status: string }>('GET', `/api/files/${clip}`);
      if (now.status === 'disabled') throw new Error('the clip failed to convert');
      return now.status !== 'processing';
    },
    90_000,
    250,
  );
}, 240_000);
afterAll(async () => {
  await display?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What is on screen: the element's file and tag, and a video's currentTime. */
const onScreen = (b: PlayerBrowser) =>
  b.page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('.pc-display__page:not(.pc-display__next)');
    return {
      file: el?.dataset.file ?? '',
      tag: el?.tagName.toLowerCase() ?? '',
      time: el instanceof HTMLVideoElement ? el.currentTime : -1,
    };
  });

describe("a display's kept videos", () => {
  it('play from the kept copy with the network cut, from the start, then the next item', async () => {
    display = await openPlayerBrowser(null, { locale: 'en-US' });
    const b = display;
    await b.context.routeWebSocket(/\/api\/screens\/device\/socket$/, (ws) => {
      if (networkCut) {
        void ws.close();
        return;
      }
      sockets.add(ws);
      ws.connectToServer();
    });
    // every answer the display's page gets for the clip (its <video> element's range requests), before and after the cut
    const ranges: { res: PwResponse; cut: boolean }[] = [];
    b.page.on('response', (res) => {
      if (res.url().includes(`/media/video/${clip}`)) ranges.push({ res, cut: networkCut });
    });
    const screenId = await pairDisplay(api, b.page, { name: 'Offline wall', timeZone: 'Asia/Tokyo' });
    await b.page.getByTestId('display-idle').waitFor({ timeout: 20_000 });
    // the worker controls the display, so what it reads from now on passes through it
    await until('the worker controls the display', () => b.page.evaluate(() => !!navigator.serviceWorker.controller));
    const playlistId = await createPlaylist(api, 'Offline clips', [doc.id]);
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId } });
    const pages = await api.json<{ imagePath: string }[]>('GET', `/api/files/${doc.id}/pages?signage_mode=true`);
    expect(pages).toHaveLength(3);
    await until(
      'the page images kept',
      () =>
        b.page.evaluate(
          async (paths) => {
            const cache = await caches.open('pagecast-media-v1');
            return (await Promise.all(paths.map((p) => cache.match(p)))).every(Boolean);
          },
          pages.map((p) => p.imagePath),
        ),
      30_000,
    );

    // the clip joins the playlist after the document: the worker keeps it whole (as many bytes as the server has)
    // in the background while the document's pages show, before the clip's element is mounted (as the next item)
    const served = await api.call('GET', `/media/video/${clip}`);
    const size = (await served.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(1000);
    await api.json('PUT', `/api/playlists/${playlistId}/items`, { fileIds: [doc.id, clip] });
    const keptSize = () =>
      b.page.evaluate(async (url) => {
        const hit = await (await caches.open('pagecast-media-v1')).match(url);
        return hit ? (await hit.blob()).size : 0;
      }, `/media/video/${clip}`);
    await until('the video kept whole', async () => (await keptSize()) === size, 30_000, 100);
    expect((await onScreen(b)).file).toBe(doc.id);
    // the page has not loaded the clip yet (else it could play from the browser's memory of it, proving nothing)
    expect(ranges).toEqual([]);

    await b.context.setOffline(true);
    networkCut = true;
    for (const ws of sockets) await ws.close();
    sockets.clear();
    // the cut is real: a video the worker has not kept cannot be had
    expect(
      await b.page.evaluate(() =>
        fetch('/media/video/0123456789abcdef01234567', { headers: { Range: 'bytes=0-' } }).then(
          () => 'reached',
          () => 'cut',
        ),
      ),
    ).toBe('cut');

    // the clip comes round, plays from its start and advances; then the document comes again
    let first = -1;
    await until(
      'the clip on screen, offline',
      async () => {
        const now = await onScreen(b);
        if (now.file === clip && now.tag === 'video') first = now.time;
        return first >= 0;
      },
      40_000,
      50,
    );
    expect(first).toBeLessThan(1);
    await until('the clip advances', async () => (await onScreen(b)).time > 1.2, 15_000, 100);
    await until('the document after it, offline', async () => (await onScreen(b)).file === doc.id, 15_000, 100);

    // every byte range of the clip the page asked for was answered by the worker, from its copy
    expect(ranges.length).toBeGreaterThan(0);
    for (const { res, cut } of ranges) {
      expect(cut).toBe(true);
      expect(res.fromServiceWorker()).toBe(true);
      expect(res.status()).toBe(206);
      expect(res.headers()['content-range']).toMatch(new RegExp(`^bytes \\d+-\\d+/${size}$`));
    }
  }, 240_000);
});

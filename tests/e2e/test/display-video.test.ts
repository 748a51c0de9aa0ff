// Video items on a real display: a member uploads two short H.264 clips (made by the media corpus) and a three-page
// PDF, puts them in a playlist (document, clip A, clip B) and the paired display in Chromium plays each clip to its
// end (its currentTime advances) between the document's pages. The next clip is loaded and decoded ahead, so the
// swap shows a decoded frame at once: the test measures, with requestVideoFrameCallback and requestAnimationFrame
// timestamps, the time from each clip's last presented frame to the next item's first painted frame, and prints it.
// Clip A is set to play twice: its time goes back to its start once and the next item comes after about twice its
// length; its play record (in the owner's signed proof) names the second it reached.
// In the member's player (/signage) a clip plays for its length too, then the next item comes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
let clipA: string;
let clipB: string;
let display: PlayerBrowser | undefined;
/** the screen the display of the first test is paired to */
let screenId: string;

/** Uploads a video (the upload's file field, as File management sends it) and waits until it is playable. */
async function uploadVideo(file: string, title: string): Promise<string> {
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
  form.append('title', title);
  const created = await api.json<{ id: string }>('POST', '/api/files/upload', form);
  let videoUrl: string | null | undefined;
  await until(
    `${title} converted`,
    async () => {
      const now = await api.json<{ status: string; videoUrl?: string | null }>('GET', `/api/files/${created.id}`);
      if (now.status === 'disabled') throw new Error(`${title}: conversion failed`);
      videoUrl = now.videoUrl;
      return now.status !== 'processing';
    },
    90_000,
    250,
  );
  expect(videoUrl).toBe(`/media/video/${created.id}`);
  return created.id;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pagecast-videos-'));
  const videos = makeVideoCorpus(dir) as Record<string, string>;
  api = await signedInMember();
  doc = await uploadPdf(api, 'vertical.pdf', 'Three pages', 1);
  clipA = await uploadVideo(videos['h264-aac.mp4'] as string, 'Clip A');
  clipB = await uploadVideo(videos['h264-aac.mp4'] as string, 'Clip B');
}, 240_000);
afterAll(async () => {
  await display?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the page records (installed in the display's page): frames presented by each video, and each swap. */
interface Timeline {
  /** per showing (data-step) of a video: the first and last frame it presented while on screen, and the frame rate */
  videos: Record<
    string,
    {
      file: string;
      first: number;
      last: number;
      frames: number;
      mediaFirst: number;
      mediaLast: number;
      /** times its media time went back (a loop from its start), and the earliest time after the first */
      wraps: number;
      afterWrap: number | null;
    }
  >;
  /** each change of the element on screen, at the animation frame that first painted it */
  swaps: { at: number; step: string; file: string; tag: string; ready: boolean }[];
  currentTimes: Record<string, number>;
}

function installTimeline() {
  const w = window as unknown as { timeline: Timeline };
  w.timeline = { videos: {}, swaps: [], currentTimes: {} };
  const watched = new WeakSet<HTMLVideoElement>();
  let shown: Element | null = null;
  const onScreen = () => document.querySelector('.pc-display__page:not(.pc-display__next)');
  const frame = (at: number) => {
    const el = onScreen();
    if (el && el !== shown) {
      shown = el;
      const html = el as HTMLElement;
      const step = html.dataset.step ?? `img-${w.timeline.swaps.length}`;
      const ready =
        el instanceof HTMLVideoElement
          ? el.readyState >= 2
          : el instanceof HTMLImageElement
            ? el.complete && el.naturalWidth > 0
            : false;
      w.timeline.swaps.push({ at, step, file: html.dataset.file ?? '', tag: el.tagName.toLowerCase(), ready });
      if (el instanceof HTMLVideoElement && !watched.has(el)) {
        watched.add(el);
        const on = (now: number, meta: { mediaTime: number }) => {
          if (onScreen() !== el) return; // swapped out: its frames no longer count
          const v = w.timeline.videos[step] ?? {
            file: html.dataset.file ?? '',
            first: now,
            last: now,
            frames: 0,
            mediaFirst: meta.mediaTime,
            mediaLast: meta.mediaTime,
            wraps: 0,
            afterWrap: null,
          };
          if (meta.mediaTime < v.mediaLast - 0.5) {
            v.wraps += 1;
            v.afterWrap = meta.mediaTime;
          }
          v.last = now;
          v.mediaLast = meta.mediaTime;
          v.frames += 1;
          w.timeline.videos[step] = v;
          w.timeline.currentTimes[step] = el.currentTime;
          el.requestVideoFrameCallback(on);
        };
        el.requestVideoFrameCallback(on);
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

describe('video items on a display', () => {
  it('play to their end between document pages, the next one decoded ahead and painted within a frame', async () => {
    display = await openPlayerBrowser(null, { serviceWorkers: 'block', locale: 'en-US' });
    const { page } = display;
    screenId = await pairDisplay(api, page, { name: 'Video wall', timeZone: 'Asia/Tokyo' });
    await page.getByTestId('display-idle').waitFor({ timeout: 20_000 });
    await page.evaluate(installTimeline);
    const playlistId = await createPlaylist(api, 'Clips', []);
    // clip A plays twice in a row
    await api.json('PUT', `/api/playlists/${playlistId}/items`, {
      fileIds: [doc.id, clipA, clipB],
      loops: { [clipA]: 2 },
    });
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId } });

    const timeline = () => page.evaluate(() => (window as unknown as { timeline: Timeline }).timeline);
    // one whole round: the document's three pages, clip A, clip B, the document again
    await until(
      'a round of the playlist',
      async () => {
        const files = (await timeline()).swaps.map((s) => s.file);
        const a = files.indexOf(clipA);
        return a > 0 && files[a + 1] === clipB && files[a + 2] === doc.id;
      },
      60_000,
      250,
    );
    const t = await timeline();
    const swaps = t.swaps;
    const a = swaps.findIndex((s) => s.file === clipA);
    const [toA, toB, toDoc] = [swaps[a], swaps[a + 1], swaps[a + 2]] as [
      Timeline['swaps'][number],
      Timeline['swaps'][number],
      Timeline['swaps'][number],
    ];
    expect(swaps.slice(0, a).every((s) => s.file === doc.id && s.tag === 'img')).toBe(true);
    expect([toA.tag, toB.tag, toDoc.tag]).toEqual(['video', 'video', 'img']);
    // each clip was decoded when it came on screen (a frame to show: no black), and played: its time advanced
    expect([toA.ready, toB.ready]).toEqual([true, true]);
    const played = [t.videos[toA.step], t.videos[toB.step]];
    for (const v of played) {
      expect(v?.frames).toBeGreaterThan(10);
      expect((v?.mediaLast ?? 0) - (v?.mediaFirst ?? 0)).toBeGreaterThan(1.5);
    }
    expect(t.currentTimes[toA.step]).toBeGreaterThan(1.5);
    // clip A twice: its time went back to its start once, and clip B came after about twice its length
    const lengthS =
      (await api.json<{ media: { durationMs: number } }>('GET', `/api/files/${clipA}`)).media.durationMs / 1000;
    expect([played[0]?.wraps, played[1]?.wraps]).toEqual([1, 0]);
    expect(played[0]?.afterWrap ?? 99).toBeLessThan(0.2);
    const shownA = (toB.at - toA.at) / 1000;
    console.log(`[display-video] clip A (${lengthS} s, 2 loops) on screen ${shownA.toFixed(2)} s`);
    expect(shownA).toBeGreaterThan(2 * lengthS - 0.3);
    expect(shownA).toBeLessThan(2 * lengthS + 1.5);

    // the gap: from a clip's last presented frame to the next item's first painted frame, less the last frame's own
    // time on screen (one frame period of the clip), which any player shows
    const gaps = [
      ['clip A -> clip B', played[0], toB],
      ['clip B -> document', played[1], toDoc],
    ] as const;
    const frameMs = (v: (typeof played)[number]) =>
      v && v.frames > 1 ? ((v.mediaLast - v.mediaFirst) * 1000) / (v.frames - 1) : 0;
    for (const [what, v, next] of gaps) {
      const raw = next.at - (v?.last ?? 0);
      console.log(
        `[display-video] ${what}: ${raw.toFixed(1)} ms from the last frame to the next item's first paint ` +
          `(frame period ${frameMs(v).toFixed(1)} ms: ${(raw - frameMs(v)).toFixed(1)} ms beyond it; one frame at 30 fps = 33.3 ms)`,
      );
      expect(next.ready).toBe(true);
      // generous for a shared 2-core machine: a stalled swap (a video loaded only when its turn came) takes far longer
      expect(raw).toBeLessThan(frameMs(v) + 250);
    }

    // its play record, signed and sent by the display, names the second it reached (its end) and both loops' time
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const proofPath = `/api/screens/plays/proof?fileId=${clipA}&from=${day(Date.now() - 86_400_000)}&to=${day(Date.now() + 86_400_000)}`;
    let record: { seconds: number; reachedSecond?: number } | undefined;
    await until(
      "clip A's play record",
      async () => {
        const proof = await api.json<{ records: { record: { seconds: number; reachedSecond?: number } }[] }>(
          'GET',
          proofPath,
        );
        record = proof.records[0]?.record;
        return record !== undefined;
      },
      40_000,
      1000,
    );
    console.log(`[display-video] clip A's record: ${JSON.stringify(record)}`);
    expect(record?.reachedSecond).toBeGreaterThan(lengthS - 0.3);
    expect(record?.reachedSecond).toBeLessThanOrEqual(lengthS);
    expect(record?.seconds).toBeGreaterThan(2 * lengthS - 0.5);
  }, 240_000);

  it('a video that does not decode is reported broken to the fleet view, then skipped', async () => {
    const page = (display as PlayerBrowser).page;
    // clip B's bytes turn into something no decoder takes (as a damaged file would be)
    await page.route(`**/media/video/${clipB}`, (route) =>
      route.fulfill({ status: 200, contentType: 'video/mp4', body: Buffer.from('not a video at all. '.repeat(200)) }),
    );
    const playlistId = await createPlaylist(api, 'Broken clip', [clipB, doc.id]);
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId } });
    type Health = { items: { screenId: string; state: string; shows: Record<string, unknown> | null }[] };
    let seen: Health['items'][number] | undefined;
    await until(
      'clip B reported broken',
      async () => {
        seen = (await api.json<Health>('GET', '/api/screens/health')).items.find((h) => h.screenId === screenId);
        return seen?.state === 'broken';
      },
      40_000,
      500,
    );
    expect(seen?.shows).toMatchObject({ kind: 'page', fileId: clipB, loaded: false, error: 'decode-failed' });
    expect(seen?.shows?.video).toBeDefined();
    // then skipped: the document's page comes
    await until(
      'the document after the broken clip',
      async () =>
        (await page.locator('.pc-display__page:not(.pc-display__next)').first().getAttribute('data-file')) === doc.id,
      20_000,
    );
    await page.unroute(`**/media/video/${clipB}`);
  }, 90_000);

  it("play in the member's player for their length, then the next item comes", async () => {
    const playlistId = await createPlaylist(api, 'Clips in the player', [clipA, doc.id]);
    const member = await openPlayerBrowser(api, { serviceWorkers: 'block' });
    try {
      const { page } = member;
      await page.goto(`/signage/${clipA}?playlist=${playlistId}&index=0&autoplay=true`);
      const clip = page.getByTestId('player-video');
      await clip.waitFor({ timeout: 20_000 });
      expect(await clip.getAttribute('src')).toBe(`/media/video/${clipA}`);
      await until('the clip plays', async () => (await clip.evaluate((v: HTMLVideoElement) => v.currentTime)) > 1);
      // it ends (about 2 s), then the document's first page: no video any more
      await until(
        'the document after the clip',
        async () =>
          (await page.getByTestId('remote-mf_player').getAttribute('data-file-id')) === doc.id &&
          (await page.getByTestId('player-video').count()) === 0,
        15_000,
      );
    } finally {
      await member.close();
    }
  }, 60_000);
});

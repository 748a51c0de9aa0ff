// Video items on a real display: a member uploads two short H.264 clips (made by the media corpus) and a three-page
// PDF, puts them in a playlist (document, clip A, clip B) and the paired display in Chromium plays each clip to its
// end (its currentTime advances) between the document's pages. The next clip is loaded and decoded ahead, so the
// swap shows a decoded frame at once: the test measures, with requestVideoFrameCallback and requestAnimationFrame
// timestamps, the time from each clip's last presented frame to the next item's first painted frame (a change made in
// a rendering step counts in that step, one made in a task in the next), prints it, and checks that what the swaps add
// to the last frame's own time on screen is under one frame at 30 fps (their median: one busy moment may delay one).
// Clip A is set to play three times: each loop starts on a second element decoded ahead at its start (no seek back
// on screen), its gap measured the same way; the next item comes after about three times its length; its play record
// (in the owner's signed proof) names the second it reached. A playlist of clip A alone repeats it, each showing
// decoded ahead, the gap measured too. In the member's player (/signage) a clip plays for its length, then the next
// item comes.
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

/** A loop of a video: from the last frame of one loop to the first painted frame of the next. */
interface Lap {
  gap: number;
  /** `swap`: another element, decoded ahead, came on screen; `seek`: the same element went back to its start */
  how: 'swap' | 'seek';
  /** the element swapped in had a decoded frame at its start (a seek: always true) */
  ready: boolean;
  /** the media time of the last frame before and of the first after (a swap: the new element's time) */
  from: number;
  to: number;
}

/** What the page records (installed in the display's page): frames presented by each video, and each swap. */
interface Timeline {
  /**
   * per showing of a video (its swap's key): the first and last frame it presented while on screen, and its loops
   */
  videos: Record<
    string,
    {
      file: string;
      first: number;
      last: number;
      frames: number;
      mediaFirst: number;
      mediaLast: number;
      /** each advance of its media time from one presented frame to the next (s): the frame period is their median */
      steps: number[];
      /** times it went back to its start (a loop), the earliest time after the first, and each loop's gap */
      wraps: number;
      afterWrap: number | null;
      laps: Lap[];
    }
  >;
  /**
   * each change of the item on screen (a new showing), at the animation frame that first painted it; `key` names the
   * showing (steps start again at 0 when the display's content changes), `step` is the display's own
   */
  swaps: { at: number; key: string; step: string; file: string; tag: string; ready: boolean }[];
  currentTimes: Record<string, number>;
}

function installTimeline() {
  const w = window as unknown as { timeline: Timeline };
  w.timeline = { videos: {}, swaps: [], currentTimes: {} };
  const watched = new WeakSet<HTMLVideoElement>();
  /** the element on screen (as of the last animation frame) and the showing it is part of */
  let current: { el: Element; key: string; step: string | undefined; file: string } | null = null;
  const onScreen = () => document.querySelector('.pc-display__page:not(.pc-display__next)');
  // When a change is painted: one made during a rendering step (an animation frame or video frame callback, whatever
  // their order) is painted in that step, at its timestamp; one made in a task (an `ended` event) in the next step.
  // A mutation observer sees each change as it is made; `inFrame` is true from the page's own animation frame
  // callback until the task after the step (a message posted from it).
  let inFrame = false;
  let frameAt = 0;
  const afterStep = new MessageChannel();
  afterStep.port1.onmessage = () => {
    inFrame = false;
  };
  new MutationObserver(() => {
    if (inFrame) check(frameAt);
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  const frame = (at: number) => {
    inFrame = true;
    frameAt = at;
    afterStep.port2.postMessage(0);
    check(at);
    requestAnimationFrame(frame);
  };
  /** What is on screen at the step of time `at`: a new showing, or a loop's other element, is recorded. */
  function check(at: number) {
    const el = onScreen();
    if (el && el !== current?.el) {
      const html = el as HTMLElement;
      const step = html.dataset.step;
      const file = html.dataset.file ?? '';
      const ready =
        el instanceof HTMLVideoElement
          ? el.readyState >= 2
          : el instanceof HTMLImageElement
            ? el.complete && el.naturalWidth > 0
            : false;
      const v = current ? w.timeline.videos[current.key] : undefined;
      if (
        el instanceof HTMLVideoElement &&
        current &&
        v &&
        step !== undefined &&
        current.step === step &&
        current.file === file
      ) {
        // the same showing on another element: a loop, painted now from the frame decoded ahead
        v.wraps += 1;
        v.afterWrap = el.currentTime;
        v.laps.push({
          gap: at - v.last,
          how: 'swap',
          ready: ready && el.currentTime < 0.05,
          from: v.mediaLast,
          to: el.currentTime,
        });
        v.mediaLast = el.currentTime;
        current = { el, key: current.key, step, file };
      } else {
        const key = `s${w.timeline.swaps.length}`;
        w.timeline.swaps.push({ at, key, step: step ?? '', file, tag: el.tagName.toLowerCase(), ready });
        current = { el, key, step, file };
      }
      if (el instanceof HTMLVideoElement && !watched.has(el)) {
        watched.add(el);
        const on = (now: number, meta: { mediaTime: number }) => {
          el.requestVideoFrameCallback(on);
          // a change made in a task since the last step is painted in this one (before this frame is counted)
          check(now);
          // counted while it is on screen: its frames before (hidden) do not count
          if (current?.el !== el) return;
          const key = current.key;
          const v = w.timeline.videos[key] ?? {
            file,
            first: now,
            last: now,
            frames: 0,
            mediaFirst: meta.mediaTime,
            mediaLast: meta.mediaTime,
            steps: [],
            wraps: 0,
            afterWrap: null,
            laps: [],
          };
          if (meta.mediaTime < v.mediaLast - 0.5) {
            // the same element back at its start: a loop by seeking
            v.wraps += 1;
            v.afterWrap = meta.mediaTime;
            v.laps.push({ gap: now - v.last, how: 'seek', ready: true, from: v.mediaLast, to: meta.mediaTime });
          } else if (meta.mediaTime > v.mediaLast && v.frames > 0 && now - v.last < 100) {
            // an advance between two frames in a row on the same element (not across a loop's swap)
            v.steps.push(meta.mediaTime - v.mediaLast);
          }
          v.last = now;
          v.mediaLast = meta.mediaTime;
          v.frames += 1;
          w.timeline.videos[key] = v;
          w.timeline.currentTimes[key] = el.currentTime;
        };
        el.requestVideoFrameCallback(on);
      }
    }
  }
  requestAnimationFrame(frame);
}

type Video = Timeline['videos'][string];
/** A video's frame period (ms): the median advance of its media time between presented frames. */
function frameMs(v: Video | undefined): number {
  const steps = [...(v?.steps ?? [])].sort((x, y) => x - y);
  return steps.length ? (steps[Math.floor(steps.length / 2)] as number) * 1000 : 0;
}
/** One frame at 30 fps (ms): the goal for what a swap adds to the last frame's own time on screen. */
const FRAME_30 = 1000 / 30;
/**
 * Prints a gap (from a last presented frame to the next first painted one, less the last frame's own time on screen,
 * which any player shows) and checks it: each one generous for a shared 2-core machine, since a stalled swap (a video
 * loaded only when its turn came) takes far longer; returns what it adds to the frame period (ms), whose median is
 * checked against the goal (a busy moment on the machine may delay one swap, not most).
 */
function gapOf(what: string, raw: number, v: Video | undefined): number {
  const period = frameMs(v);
  console.log(
    `[display-video] gap ${what}: ${raw.toFixed(1)} ms from the last frame to the next first paint ` +
      `(frame period ${period.toFixed(1)} ms: ${(raw - period).toFixed(1)} ms beyond it; one frame at 30 fps = 33.3 ms)`,
  );
  expect(period).toBeGreaterThan(20); // the clips are 30 fps: the measure itself is sound
  expect(period).toBeLessThan(50);
  expect(raw).toBeLessThan(period + 250);
  return raw - period;
}
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

describe('video items on a display', () => {
  it('play to their end between document pages, the next one decoded ahead and painted within a frame', async () => {
    display = await openPlayerBrowser(null, { serviceWorkers: 'block', locale: 'en-US' });
    const { page } = display;
    screenId = await pairDisplay(api, page, { name: 'Video wall', timeZone: 'Asia/Tokyo' });
    await page.getByTestId('display-idle').waitFor({ timeout: 20_000 });
    await page.evaluate(installTimeline);
    const playlistId = await createPlaylist(api, 'Clips', []);
    // clip A plays three times in a row
    await api.json('PUT', `/api/playlists/${playlistId}/items`, {
      fileIds: [doc.id, clipA, clipB],
      loops: { [clipA]: 3 },
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
    const played = [t.videos[toA.key], t.videos[toB.key]];
    for (const v of played) {
      expect(v?.frames).toBeGreaterThan(10);
      expect((v?.mediaLast ?? 0) - (v?.mediaFirst ?? 0)).toBeGreaterThan(1.5);
    }
    expect(t.currentTimes[toA.key]).toBeGreaterThan(1.5);
    // clip A three times: it went back to its start twice, each time on an element decoded ahead at its start (not a
    // seek on screen), and clip B came after about three times its length
    const lengthS =
      (await api.json<{ media: { durationMs: number } }>('GET', `/api/files/${clipA}`)).media.durationMs / 1000;
    console.log(
      `[display-video] clip A's first frame at ${played[0]?.mediaFirst} s, its loops: ${JSON.stringify(played[0]?.laps)}; clip B's: ${JSON.stringify(played[1]?.laps)}`,
    );
    expect([played[0]?.wraps, played[1]?.wraps]).toEqual([2, 0]);
    expect(played[0]?.afterWrap ?? 99).toBeLessThan(0.2);
    expect(played[0]?.laps.map((l) => [l.how, l.ready])).toEqual([
      ['swap', true],
      ['swap', true],
    ]);
    const shownA = (toB.at - toA.at) / 1000;
    console.log(`[display-video] clip A (${lengthS} s, 3 loops) on screen ${shownA.toFixed(2)} s`);
    expect(shownA).toBeGreaterThan(3 * lengthS - 0.3);
    expect(shownA).toBeLessThan(3 * lengthS + 1.5);

    // the gaps: from a clip's last presented frame to the next loop's or item's first painted frame
    const beyond: number[] = [];
    for (const [i, lap] of (played[0]?.laps ?? []).entries())
      beyond.push(gapOf(`loop clip A ${i + 1} -> ${i + 2}`, lap.gap, played[0]));
    for (const [what, v, next] of [
      ['item clip A -> clip B', played[0], toB],
      ['item clip B -> document', played[1], toDoc],
    ] as const) {
      expect(next.ready).toBe(true);
      beyond.push(gapOf(what, next.at - (v?.last ?? 0), v));
    }
    // the goal: a loop or the next item painted within one frame at 30 fps of the last frame's end
    expect(median(beyond)).toBeLessThan(FRAME_30);

    // its play record, signed and sent by the display, names the second it reached (its end) and the three loops' time
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const proofPath = `/api/screens/plays/proof?fileId=${clipA}&from=${day(Date.now() - 86_400_000)}&to=${day(Date.now() + 86_400_000)}`;
    let record: { seconds: number; reachedSecond?: number } | undefined;
    await until(
      "clip A's play record",
      async () => {
        // sent at once when the browser says it is back online, not after the page's 30 s period
        await page.evaluate(() => window.dispatchEvent(new Event('online')));
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
    expect(record?.seconds).toBeGreaterThan(3 * lengthS - 0.5);
  }, 240_000);

  it('a playlist of one video repeats it, each showing decoded ahead and painted within a frame', async () => {
    const page = (display as PlayerBrowser).page;
    const timeline = () => page.evaluate(() => (window as unknown as { timeline: Timeline }).timeline);
    const from = (await timeline()).swaps.length;
    const playlistId = await createPlaylist(api, 'One clip', [clipA]);
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId } });
    // five showings of clip A in a row: the first came when the assignment changed (not prepared ahead, maybe the
    // end of the last playlist's clip A), each after it is a repeat
    const repeats = (swaps: Timeline['swaps']) => {
      const after = swaps.slice(from);
      let first = after.length;
      while (first > 0 && after[first - 1]?.file === clipA) first -= 1;
      return after.slice(first);
    };
    await until('four repeats of the clip', async () => repeats((await timeline()).swaps).length >= 5, 60_000, 250);
    const t = await timeline();
    const shows = repeats(t.swaps).slice(0, 5);
    expect(shows.slice(1).every((s) => s.tag === 'video' && s.ready)).toBe(true);
    // each showing is its own (a new step), played to its end once: no loop inside it
    expect(new Set(shows.map((s) => s.step)).size).toBe(5);
    for (const s of shows.slice(1, 4)) {
      expect(t.videos[s.key]?.wraps).toBe(0);
      expect(t.videos[s.key]?.frames).toBeGreaterThan(10);
    }
    const beyond: number[] = [];
    for (let i = 2; i < shows.length; i++) {
      const before = t.videos[(shows[i - 1] as Timeline['swaps'][number]).key];
      beyond.push(
        gapOf(
          `repeat clip A ${i - 1} -> ${i}`,
          (shows[i] as Timeline['swaps'][number]).at - (before?.last ?? 0),
          before,
        ),
      );
    }
    expect(median(beyond)).toBeLessThan(FRAME_30);
  }, 90_000);

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

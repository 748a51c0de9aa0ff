// @vitest-environment jsdom
// A display plays a video item (components/video-slide.tsx): /screen paired, in jsdom with the real catalogues, on
// fake timers; the network is an in-test fetch, and the <video> is driven by the test (jsdom plays no media: play and
// pause are recorded, `ended`, `playing` and `error` are dispatched). The video plays until it ends, not for the
// page's seconds; the next video is mounted, loaded and decoded before the current one ends and is the element shown;
// a video that fails is reported broken and skipped. The element's time is the test's too (jsdom's stays 0): it
// advances as the test plays it (playFor), so a video whose time stops is seen frozen, reported, and skipped. An item
// set to loop has a second element decoded at its start behind it: each loop swaps the two in the end's own commit
// (no seek on screen); when the second one is not ready the one on screen seeks back instead. A seamless loop is never
// seen frozen, a loop that stops is; the play record of the whole showing names the second it reached. jsdom has no
// decoder, so an element's readiness (readyState) is the test's too: `decoded`.
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisplayPage } from '../src/features/display/components/display-page';
import { afterLoop, readyForLoop } from '../src/features/display/components/video-slide';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const PLAYLIST = '6a1f0000000000000000aa01';
const DOC = '6a1f000000000000000000d1';
const V1 = '6a1f000000000000000000e1';
const V2 = '6a1f000000000000000000e2';
const SCREEN = {
  screenId: 's1',
  name: 'Front window',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'playlist', playlistId: PLAYLIST },
  heartbeatSeconds: 60,
};
const page = (fileId: string, seconds: number, videoMs?: number) => ({
  id: `p-${fileId}`,
  fileId,
  pageNumber: 1,
  imagePath: `/media/page-${fileId}.webp`,
  thumbPath: `/media/thumb-${fileId}.webp`,
  displayDuration: seconds,
  ...(videoMs === undefined ? {} : { video: { url: `/media/video/${fileId}`, durationMs: videoMs } }),
  createdAt: '2026-12-01T00:00:00.000Z',
});
const item = (fileId: string, position: number) => ({
  id: `i${position}`,
  playlistId: PLAYLIST,
  fileId,
  position,
  ...(loops[fileId] ? { loops: loops[fileId] } : {}),
  file: { id: fileId },
});
/** each video item's loops, by file id */
let loops: Record<string, number>;
/** each element's time (seconds): jsdom plays nothing, the test moves it */
const times = new WeakMap<HTMLMediaElement, number>();
const timeDescriptor = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'currentTime');
const readyDescriptor = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'readyState');
/** whether elements have a decoded frame (readyState 4, else 0, as jsdom says) */
let decoded: boolean;

let i18n: Awaited<ReturnType<typeof initI18n>>;
let root: Root;
let host: HTMLDivElement;
let files: string[];
let pages: Record<string, ReturnType<typeof page>>;
let videoStatus: number;
/** what each heartbeat said the display shows */
let reports: {
  kind: string;
  fileId?: string;
  loaded?: boolean;
  error?: string | null;
  video?: { second: number; frozen?: boolean };
}[];
/** play() and pause() calls, by the element's step */
let calls: string[];
/** the same calls, by element (a looping item's two elements have the same step) */
let byElement: [string, HTMLMediaElement][];

class FakeEventSource {
  onerror: (() => void) | null = null;
  addEventListener() {}
  close() {}
}

beforeAll(async () => {
  i18n = await initI18n({ lng: 'en' });
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
  localStorage.setItem('pagecast.screen.device', JSON.stringify(SCREEN));
  vi.useFakeTimers({ now: Date.parse('2026-12-06T09:00:00.000Z') });
  reports = [];
  calls = [];
  byElement = [];
  loops = {};
  decoded = false;
  Object.defineProperty(HTMLMediaElement.prototype, 'readyState', {
    configurable: true,
    get: () => (decoded ? 4 : 0),
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'currentTime', {
    configurable: true,
    get(this: HTMLMediaElement) {
      return times.get(this) ?? 0;
    },
    set(this: HTMLMediaElement, v: number) {
      times.set(this, v);
    },
  });
  videoStatus = 206;
  vi.stubGlobal('EventSource', FakeEventSource);
  // no socket (as behind a proxy that refuses it): the content is read over HTTP at once, not after the wait for a
  // socket still opening (jsdom's own WebSocket would try a real connection)
  vi.stubGlobal('WebSocket', undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    calls.push(`play ${this.dataset.step}`);
    byElement.push(['play', this]);
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    calls.push(`pause ${this.dataset.step}`);
    byElement.push(['pause', this]);
  });
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://app.test').pathname;
    if (path === '/api/screens/device/me') return json(SCREEN);
    if (path === `/api/playlists/${PLAYLIST}/items`) return json(files.map((f, i) => item(f, i)));
    const pagesOf = /^\/api\/files\/([0-9a-f]+)\/pages$/.exec(path)?.[1];
    if (pagesOf && pages[pagesOf]) return json([pages[pagesOf]]);
    if (path === '/api/screens/device/heartbeat') {
      const body = JSON.parse(String(init?.body)) as { shows?: (typeof reports)[number] };
      if (body.shows) reports.push(body.shows);
      return json({});
    }
    if (path.startsWith('/media/video/')) return new Response('not a video', { status: videoStatus });
    if (path.startsWith('/media/')) return new Response('image bytes', { status: 200 });
    return json({ code: 'NOT_FOUND', message: 'no' }, 404);
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  if (timeDescriptor) Object.defineProperty(HTMLMediaElement.prototype, 'currentTime', timeDescriptor);
  if (readyDescriptor) Object.defineProperty(HTMLMediaElement.prototype, 'readyState', readyDescriptor);
  vi.useRealTimers();
});

async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
const current = () => host.querySelector<HTMLElement>('.pc-display__page:not(.pc-display__next)') as HTMLElement | null;
const currentFile = () => current()?.dataset.file;
const video = (state: 'current' | 'next' | 'lap') =>
  host.querySelector<HTMLVideoElement>(`video[data-state="${state}"]`);
async function mediaEvent(el: HTMLElement | null, type: string) {
  await act(async () => {
    el?.dispatchEvent(new Event(type));
  });
  await pass(0);
}
/** The video plays `ms` on: its time advances with the clock, a `timeupdate` every quarter second. */
async function playFor(el: HTMLVideoElement | null, ms: number) {
  for (let done = 0; done < ms; done += 250) {
    if (el) el.currentTime += 0.25;
    await mediaEvent(el, 'timeupdate');
    await pass(250);
  }
}
const playLog = () =>
  JSON.parse(localStorage.getItem('pagecast.screen.plays') ?? '[]') as {
    fileId: string;
    seconds: number;
    reachedSecond?: number;
  }[];

describe('a video item on the display', () => {
  it('plays until it ends (not for its seconds), with the next video decoded ahead and shown as the same element', async () => {
    files = [DOC, V1, V2];
    pages = { [DOC]: page(DOC, 5), [V1]: page(V1, 5, 30_000), [V2]: page(V2, 5, 20_000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(currentFile()).toBe(DOC);
    // the document page is on screen, the first video is already mounted behind it, loading and decoded
    const first = video('next');
    expect(first?.dataset.file).toBe(V1);
    expect(first?.getAttribute('src')).toBe(`/media/video/${V1}`);
    expect(first?.getAttribute('poster')).toBe(`/media/page-${V1}.webp`);
    expect(first?.getAttribute('preload')).toBe('auto');
    expect(first?.muted).toBe(true);
    expect(first?.hasAttribute('playsinline')).toBe(true);
    expect(calls).toEqual(['play 1', 'pause 1']);
    expect(first?.dataset.prepared).toBe('true');

    // the page's 5 s: the prepared element itself comes on screen and plays
    await pass(5000);
    expect(currentFile()).toBe(V1);
    expect(video('current')).toBe(first);
    // ...and the second video is prepared behind it (steps count from 0, the document page)
    expect(video('next')?.dataset.file).toBe(V2);
    expect(calls).toEqual(['play 1', 'pause 1', 'play 1', 'play 2', 'pause 2']);
    await mediaEvent(first, 'playing');

    // far past the page's 5 s, short of the video's 30 s plus the stall guard: still the video
    await playFor(first, 25_000);
    expect(currentFile()).toBe(V1);
    // it ends: the prepared second video is shown at once, as the element that was decoded ahead
    const second = video('next');
    await mediaEvent(first, 'ended');
    expect(currentFile()).toBe(V2);
    expect(video('current')).toBe(second);
    expect(first?.isConnected).toBe(false);
    // the document page after it is mounted hidden already, and is the element its end shows
    const after = host.querySelector('img.pc-display__next');
    expect(after?.getAttribute('data-file')).toBe(DOC);
    await mediaEvent(second, 'ended');
    expect(currentFile()).toBe(DOC);
    expect(current()).toBe(after);
  });

  it('moves past a video that never ends once its length and the stall guard have passed', async () => {
    files = [V1, DOC];
    pages = { [DOC]: page(DOC, 5), [V1]: page(V1, 5, 4000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(currentFile()).toBe(V1);
    await pass(4000 + 9000);
    expect(currentFile()).toBe(V1);
    await pass(1000);
    expect(currentFile()).toBe(DOC);
  });

  it('reports a video that fails as a broken page, then skips it', async () => {
    videoStatus = 404;
    files = [V1, DOC];
    pages = { [DOC]: page(DOC, 600), [V1]: page(V1, 5, 30_000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(currentFile()).toBe(V1);
    await pass(1000);
    await mediaEvent(video('current'), 'error');
    // told as a broken page (its address answers 404) before it is skipped, once the report's window allows
    await pass(2000);
    expect(currentFile()).toBe(V1);
    expect(reports.at(-1)).toMatchObject({ kind: 'page', fileId: V1, loaded: false, error: 'not-found' });
    await pass(250);
    expect(currentFile()).toBe(DOC);
  });

  it('loops on the element on screen from its start when the second one is not ready; its record names the second reached', async () => {
    files = [V1, DOC];
    loops = { [V1]: 2 };
    pages = { [DOC]: page(DOC, 600), [V1]: page(V1, 5, 4000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    const clip = video('current');
    expect(clip?.dataset.loops).toBe('2');
    await mediaEvent(clip, 'playing');
    await playFor(clip, 4000);
    calls.length = 0;
    // its first end, the element behind it not decoded (still loading): the same element again from 0, played, its
    // last frame on screen while it seeks
    expect(video('lap')?.dataset.file).toBe(V1);
    await mediaEvent(clip, 'ended');
    expect(currentFile()).toBe(V1);
    expect(video('current')).toBe(clip);
    expect(clip?.currentTime).toBe(0);
    expect(calls).toEqual(['play 0']);
    // its last loop: no element behind it any more
    expect(video('lap')).toBeNull();
    await playFor(clip, 4000);
    // its second end: the next item
    await mediaEvent(clip, 'ended');
    expect(currentFile()).toBe(DOC);
    const [record] = playLog();
    expect(record).toMatchObject({ fileId: V1, reachedSecond: 4 });
    expect(record?.seconds).toBeCloseTo(8, 0);
  });

  it('plays an item set to loop on two elements decoded at its start, swapped at each end in its own commit', async () => {
    files = [V1, DOC];
    loops = { [V1]: 3 };
    decoded = true;
    pages = { [DOC]: page(DOC, 600), [V1]: page(V1, 5, 4000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    const a = video('current') as HTMLVideoElement;
    const b = video('lap') as HTMLVideoElement;
    // the second loop's element is behind the first: the same video, hidden, played a moment and paused at its start
    expect([a.dataset.lap, b.dataset.lap]).toEqual(['0', '1']);
    expect(b.getAttribute('src')).toBe(`/media/video/${V1}`);
    expect(b.classList.contains('pc-display__next')).toBe(true);
    expect(b.getAttribute('aria-hidden')).toBe('true');
    expect(b.dataset.prepared).toBe('true');
    expect(byElement.filter(([, el]) => el === b).map(([call]) => call)).toEqual(['play', 'pause']);
    expect(b.currentTime).toBe(0);
    await mediaEvent(a, 'playing');
    await playFor(a, 4000);
    // the hidden element's events do not count: its end (or failure) changes nothing on screen
    await mediaEvent(b, 'ended');
    await mediaEvent(b, 'error');
    expect(video('current')).toBe(a);
    byElement.length = 0;

    // the first end: the element decoded behind is shown and played at once; the ended one goes behind, back at its
    // start (played a moment and paused again) for the third loop; the one on screen never seeks
    await mediaEvent(a, 'ended');
    expect(currentFile()).toBe(V1);
    expect(video('current')).toBe(b);
    expect(video('lap')).toBe(a);
    expect([b.dataset.lap, a.dataset.lap]).toEqual(['1', '2']);
    expect(b.classList.contains('pc-display__next')).toBe(false);
    expect(a.classList.contains('pc-display__next')).toBe(true);
    expect(byElement.filter(([, el]) => el === b).map(([call]) => call)).toEqual(['play']);
    expect(byElement.filter(([, el]) => el === a).map(([call]) => call)).toEqual(['play', 'pause']);
    expect(a.currentTime).toBe(0);
    expect(a.dataset.prepared).toBe('true');
    await mediaEvent(b, 'playing');
    await playFor(b, 4000);

    // the second end: back to the first element for the last loop; no loop after it, so no element behind
    await mediaEvent(b, 'ended');
    expect(video('current')).toBe(a);
    expect(video('lap')).toBeNull();
    expect(b.isConnected).toBe(false);
    await playFor(a, 4000);
    // the third end: the next item; one record for the three loops, naming the second reached
    await mediaEvent(a, 'ended');
    expect(currentFile()).toBe(DOC);
    expect(playLog()).toHaveLength(1);
    expect(playLog()[0]).toMatchObject({ fileId: V1, reachedSecond: 4 });
    expect(playLog()[0]?.seconds).toBeCloseTo(12, 0);
    expect(reports.some((r) => r.video?.frozen)).toBe(false);
  });

  it('never sees a seamless loop frozen; a loop whose time stops is reported frozen at its own second', async () => {
    files = [V1, DOC];
    loops = { [V1]: 2 };
    decoded = true;
    pages = { [DOC]: page(DOC, 600), [V1]: page(V1, 5, 6000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    const a = video('current') as HTMLVideoElement;
    const b = video('lap') as HTMLVideoElement;
    await mediaEvent(a, 'playing');
    await playFor(a, 6000);
    await mediaEvent(a, 'ended');
    expect(video('current')).toBe(b);
    await mediaEvent(b, 'playing');
    // the second loop plays 3 s, then its time stops: watched on the element on screen (the first one, gone, would
    // look still since the swap)
    await playFor(b, 3000);
    await pass(4000);
    expect(reports.some((r) => r.video?.frozen)).toBe(false);
    expect(currentFile()).toBe(V1);
    await pass(2000);
    expect(reports.at(-1)).toMatchObject({ kind: 'page', fileId: V1, video: { second: 3, frozen: true } });
    await pass(2500);
    expect(currentFile()).toBe(DOC);
    expect(playLog()[0]).toMatchObject({ fileId: V1, reachedSecond: 3 });
  });

  it('reports a video whose time stops as frozen at its second, then skips it', async () => {
    files = [V1, DOC];
    pages = { [DOC]: page(DOC, 600), [V1]: page(V1, 5, 30_000) };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    const clip = video('current');
    await mediaEvent(clip, 'playing');
    await playFor(clip, 3000);
    // its time stops: not yet frozen within 4 s
    await pass(4000);
    expect(reports.some((r) => r.video?.frozen)).toBe(false);
    await pass(2000);
    expect(reports.at(-1)).toMatchObject({
      kind: 'page',
      fileId: V1,
      loaded: true,
      error: null,
      video: { second: 3, frozen: true },
    });
    expect(currentFile()).toBe(V1);
    // skipped once the report's window allowed it to be told
    await pass(2500);
    expect(currentFile()).toBe(DOC);
    expect(playLog()[0]).toMatchObject({ fileId: V1, reachedSecond: 3 });
  });
});

describe('what a looping video does at its end', () => {
  it('swaps to the other element when it is ready, seeks back when not, and moves on after the last loop', () => {
    expect(afterLoop({ lap: 0, shown: 0 }, 3, true)).toEqual({ by: 'swap', laps: { lap: 1, shown: 1 } });
    expect(afterLoop({ lap: 1, shown: 1 }, 3, true)).toEqual({ by: 'swap', laps: { lap: 2, shown: 0 } });
    expect(afterLoop({ lap: 1, shown: 1 }, 3, false)).toEqual({ by: 'seek', laps: { lap: 2, shown: 1 } });
    expect(afterLoop({ lap: 2, shown: 0 }, 3, true)).toEqual({ by: 'next' });
    expect(afterLoop({ lap: 0, shown: 0 }, 1, true)).toEqual({ by: 'next' });
  });

  it('counts an element ready for a loop only prepared, paused at its start with a frame, not seeking, not failed', () => {
    const el = document.createElement('video');
    const state = { prepared: true, error: null as MediaError | null, paused: true, seeking: false, ready: 4, time: 0 };
    for (const key of ['error', 'paused', 'seeking'] as const)
      Object.defineProperty(el, key, { get: () => state[key] });
    Object.defineProperty(el, 'readyState', { get: () => state.ready });
    Object.defineProperty(el, 'currentTime', { get: () => state.time });
    const ready = () => {
      if (state.prepared) el.dataset.prepared = 'true';
      else delete el.dataset.prepared;
      return readyForLoop(el);
    };
    expect(ready()).toBe(true);
    expect(readyForLoop(null)).toBe(false);
    const changes: Partial<typeof state>[] = [
      { prepared: false },
      { error: {} as MediaError },
      { paused: false },
      { seeking: true },
      { ready: 1 },
      { time: 1.5 },
    ];
    for (const change of changes) {
      const saved = { ...state };
      Object.assign(state, change);
      expect(ready(), JSON.stringify(change)).toBe(false);
      Object.assign(state, saved);
    }
  });
});

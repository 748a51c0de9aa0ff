// @vitest-environment jsdom
// A display never gives up on a page's image either (model/use-page-image.ts): /screen paired, in jsdom with the
// real catalogues, on fake timers; the network is an in-test fetch, and the <img> is told by the test whether it drew
// (jsdom loads no images). A failed image is reported broken, asked again (a new address each try), and draws once
// the network returns; the slideshow moves on meanwhile.
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisplayPage } from '../src/features/display/components/display-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const FILE = '6a1f000000000000000000f1';
const SCREEN = {
  screenId: 's1',
  name: 'Front window',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'file', fileId: FILE },
  heartbeatSeconds: 60,
};
const page = (n: number, seconds: number) => ({
  id: `p${n}`,
  fileId: FILE,
  pageNumber: n,
  imagePath: `/media/page-${n}.webp`,
  thumbPath: `/media/thumb-${n}.webp`,
  displayDuration: seconds,
  createdAt: '2026-12-01T00:00:00.000Z',
});

let i18n: Awaited<ReturnType<typeof initI18n>>;
let root: Root;
let host: HTMLDivElement;
let mediaUp: boolean;
let pages: ReturnType<typeof page>[];
/** what each heartbeat said the display shows */
let reports: { kind: string; page?: number; loaded?: boolean; error?: string | null }[];
/** the addresses asked in the background (a page no longer on screen) */
let probes: string[];
let probeImages: FakeImage[];

class FakeEventSource {
  onerror: (() => void) | null = null;
  addEventListener() {}
  close() {}
}
class FakeImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(value: string) {
    probes.push(value);
    probeImages.push(this);
  }
}

beforeAll(async () => {
  i18n = await initI18n({ lng: 'en' });
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
  localStorage.setItem('pagecast.screen.device', JSON.stringify(SCREEN));
  vi.useFakeTimers({ now: Date.parse('2026-12-06T09:00:00.000Z') });
  mediaUp = false;
  reports = [];
  probes = [];
  probeImages = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('Image', FakeImage);
  // no socket (as behind a proxy that refuses it): the content is read over HTTP at once, not after the wait for a
  // socket still opening (jsdom's own WebSocket would try a real connection)
  vi.stubGlobal('WebSocket', undefined);
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://app.test').pathname;
    if (path === '/api/screens/device/me') return json(SCREEN);
    if (path === `/api/files/${FILE}/pages`) return json(pages);
    if (path === '/api/screens/device/heartbeat') {
      const body = JSON.parse(String(init?.body)) as { shows?: (typeof reports)[number] };
      if (body.shows) reports.push(body.shows);
      return json({});
    }
    if (path.startsWith('/media/')) {
      if (!mediaUp) throw new TypeError('Failed to fetch');
      return new Response('image bytes', { status: 200 });
    }
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
  vi.useRealTimers();
});

async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
const img = () => host.querySelector<HTMLImageElement>('img.pc-display__page');
const waitingLine = () => host.querySelector<HTMLElement>('[data-testid="display-waiting"]');
const path = (el: HTMLImageElement | null) => (el ? new URL(el.src, 'http://app.test').pathname : null);
const query = (el: HTMLImageElement | null) => (el ? new URL(el.src, 'http://app.test').search : null);
async function imageEvent(type: 'load' | 'error') {
  await act(async () => {
    img()?.dispatchEvent(new Event(type));
  });
  await pass(0);
}

describe('a page image that fails to load', () => {
  it('is reported broken, asked again after each failure, and draws once the network returns', async () => {
    pages = [page(1, 600)];
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(path(img())).toBe('/media/page-1.webp');
    expect(query(img())).toBe('');

    // the network is down: the image fails, and so does the second look at its address
    await imageEvent('error');
    expect(waitingLine()?.dataset.waiting).toBe('page-image');
    expect(waitingLine()?.textContent).toMatch(/^Waiting for a page’s image to load\. Trying again in \d seconds?\.$/);
    await pass(1000);
    expect(query(img())).toBe('?try=1');
    await imageEvent('error');
    await pass(2000);
    expect(query(img())).toBe('?try=2');
    // the fleet is told the page is broken
    await pass(60_000);
    expect(reports.at(-1)).toMatchObject({ kind: 'page', page: 1, loaded: false, error: 'load-failed' });

    // back: the image asked again draws; the waiting line goes, and the report is cleared
    mediaUp = true;
    await imageEvent('error');
    const before = query(img());
    await pass(16_000);
    expect(query(img())).not.toBe(before);
    await imageEvent('load');
    // (the proof of play this test does not answer may still wait; nothing waits for the image)
    expect(waitingLine()?.dataset.waiting).not.toBe('page-image');
    await pass(60_000);
    expect(reports.at(-1)).toMatchObject({ kind: 'page', page: 1, loaded: true, error: null });
  });

  it('does not hold the slideshow: the next page shows while the failed one is asked again in the background', async () => {
    // each wait its longest: 1 s, 2 s, 4 s...
    vi.spyOn(Math, 'random').mockReturnValue(1);
    pages = [page(1, 2), page(2, 60)];
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(path(img())).toBe('/media/page-1.webp');
    await imageEvent('error');
    await pass(1000);
    expect(query(img())).toBe('?try=1');
    await imageEvent('error');
    // page 2 comes on time (2 s), page 1's second try is due at 3 s: asked in the background, with a new address
    await pass(1000);
    expect(path(img())).toBe('/media/page-2.webp');
    await imageEvent('load');
    expect(probes).toEqual([]);
    await pass(1000);
    expect(probes).toEqual(['/media/page-1.webp?try=2']);
    expect(waitingLine()?.dataset.waiting).toBe('page-image');
    // it drew: nothing waits for it any more, and no further try is made
    await act(async () => probeImages[0]?.onload?.());
    expect(waitingLine()?.dataset.waiting).not.toBe('page-image');
    await pass(30_000);
    expect(probes).toHaveLength(1);
  });
});

// The signage display and fleet health on a real paired display: turned 90° it draws its page upright
// (portrait stage on a landscape window), outside its opening hours it is black, loads nothing and reports itself
// closed and blank, and held on a stale page after its assignment changed it turns "wrong content" on the owner's
// health list after the minute.
import type { FleetHealth, HeartbeatRequest, ScreenHealth } from '@pagecast/contracts';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type Api,
  openPlayerBrowser,
  type PlayerBrowser,
  deviceCalls,
  pairDisplay,
  signedInMember,
  until,
  uploadPdf,
} from './player-helpers';

let api: Api;
let display: PlayerBrowser;
/** the display held on a stale manifest: pushed manifests lose their text on the way (it reads, answered stale) */
let holdManifest = false;
let screenId = '';
let fileA = '';
let fileB = '';
const NAME = `Portrait ${Date.now().toString(36)}`;

const shownFile = (page: Page) =>
  page
    .locator('.pc-display__page')
    .getAttribute('data-file', { timeout: 200 })
    .catch(() => null);
/** The screen's health as its owner reads it on the fleet health list. */
async function health(): Promise<ScreenHealth> {
  const list = await api.json<FleetHealth>('GET', `/api/screens/health?q=${encodeURIComponent(NAME)}`);
  const mine = list.items.find((s) => s.screenId === screenId);
  if (!mine) throw new Error(`${NAME} is not on the health list`);
  return mine;
}
/** A span of one minute twelve hours away from now in Tokyo: the screen is closed now, every day. */
function closedNowInTokyo() {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()),
  );
  const far = String((hour + 12) % 24).padStart(2, '0');
  return [{ days: [0, 1, 2, 3, 4, 5, 6], start: `${far}:00`, end: `${far}:01` }];
}

beforeAll(async () => {
  // the screens service on real time (a test before may have moved its test clock): what the display reports it
  // shows is stamped by the display's own clock, and the health rules compare it with the service's
  const stackEnv = inject('stackEnv');
  if (stackEnv?.SCREENS_URL) {
    const res = await fetch(`${stackEnv.SCREENS_URL}/internal/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: null }),
    });
    if (!res.ok) throw new Error(`screens test clock: ${res.status} ${await res.text()}`);
  }
  api = await signedInMember();
  fileA = (await uploadPdf(api, 'vertical.pdf', 'Portrait poster', 1)).id;
  fileB = (await uploadPdf(api, 'noembed-sjis.pdf', 'Next week', 1)).id;
  // service workers blocked: page.route sees the display's every request (and can hold its manifest)
  display = await openPlayerBrowser(null, { serviceWorkers: 'block' });
  // The socket goes through the test, which can hold the display on a stale manifest there too: a pushed manifest
  // frame then comes without its text (the display reads its manifest, which the test answers stale)
  await display.context.routeWebSocket(/\/api\/screens\/device\/socket$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (!holdManifest || typeof message !== 'string') return void ws.send(message);
      const frame = JSON.parse(message) as { type?: string; manifest?: string };
      if (frame.type === 'manifest') delete frame.manifest;
      ws.send(JSON.stringify(frame));
    });
  });
  screenId = await pairDisplay(api, display.page, { name: NAME, timeZone: 'Asia/Tokyo' });
  // the screen plays file A through its group (so A stays content it may show after its own assignment changes)
  await api.json('POST', '/api/screens/groups', {
    name: `Lobby ${NAME}`,
    screenIds: [screenId],
    assignment: { kind: 'file', fileId: fileA },
  });
  await until('the display plays file A', async () => (await shownFile(display.page)) === fileA, 30_000);
}, 300_000);

afterAll(async () => {
  await display?.close();
});

describe('a display that fits its wall and keeps its hours', () => {
  it('turned 90°, it draws its page upright: a portrait stage on the landscape window', async () => {
    const { page } = display;
    const before = await page.getByTestId('display-stage').evaluate((el) => getComputedStyle(el).transform);
    expect(before).toBe('matrix(1, 0, 0, 1, -640, -400)'); // unturned, centred on the 1280×800 window
    await api.json('PUT', `/api/screens/${screenId}`, { rotation: 90 });
    await until(
      'the stage turned',
      async () => (await page.getByTestId('display-stage').getAttribute('data-rotation')) === '90',
    );
    await until('a page drawn on the turned stage', async () =>
      page
        .locator('.pc-display__page')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)
        .catch(() => false),
    );
    const seen = await page.evaluate(() => {
      const stage = document.querySelector<HTMLElement>('[data-testid="display-stage"]') as HTMLElement;
      const img = document.querySelector<HTMLImageElement>('.pc-display__page') as HTMLImageElement;
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return {
          left: Math.round(r.left),
          top: Math.round(r.top),
          width: Math.round(r.width),
          height: Math.round(r.height),
        };
      };
      const m = new DOMMatrix(getComputedStyle(stage).transform);
      return {
        window: { width: window.innerWidth, height: window.innerHeight },
        stage: { width: stage.offsetWidth, height: stage.offsetHeight, onScreen: box(stage) },
        turn: [m.a, m.b, m.c, m.d].map((n) => Math.round(n)),
        img: {
          width: img.offsetWidth,
          height: img.offsetHeight,
          natural: { width: img.naturalWidth, height: img.naturalHeight },
          fit: getComputedStyle(img).objectFit,
          onScreen: box(img),
        },
      };
    });
    expect(seen.window).toEqual({ width: 1280, height: 800 });
    // the stage is laid out portrait (the window's height as its width) and turned 90° clockwise onto the window
    expect(seen.stage).toMatchObject({ width: 800, height: 1280 });
    expect(seen.turn).toEqual([0, 1, -1, 0]);
    expect(seen.stage.onScreen).toEqual({ left: 0, top: 0, width: 1280, height: 800 });
    // the portrait page fills the portrait stage: contained by its width, drawn taller than the window is high
    expect(seen.img.natural.height).toBeGreaterThan(seen.img.natural.width);
    expect(seen.img).toMatchObject({ width: 800, height: 1280, fit: 'contain' });
    const drawnHeight = (800 * seen.img.natural.height) / seen.img.natural.width;
    expect(drawnHeight).toBeGreaterThan(seen.window.height);
    // on the window (the panel as the graphics card drives it), the image lies on its side
    expect(seen.img.onScreen).toEqual({ left: 0, top: 0, width: 1280, height: 800 });
    // the stage's top edge (the page's top) is on the window's right: a screen hung turned clockwise shows it upright
    // (a marker laid at the middle of the stage's top edge, placed on the window by the browser)
    const topCentre = await page.getByTestId('display-stage').evaluate((stage) => {
      const mark = document.createElement('i');
      mark.style.cssText = 'position:absolute;top:0;left:50%;width:2px;height:2px;margin-left:-1px';
      stage.appendChild(mark);
      const r = mark.getBoundingClientRect();
      mark.remove();
      return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
    });
    expect(Math.abs(topCentre.x - 1279)).toBeLessThanOrEqual(1); // the right edge (the marker is 2 px deep)
    expect(topCentre.y).toBe(400);
  });

  it('outside its hours it is black, loads nothing and its heartbeat says closed; it resumes at opening', async () => {
    const { page } = display;
    await api.json('PUT', `/api/screens/${screenId}`, { openingHours: closedNowInTokyo() });
    await page.getByTestId('display-closed').waitFor({ timeout: 20_000 });
    // from now on: every request the display makes, and the body of each heartbeat
    const requests: string[] = [];
    const beats: HeartbeatRequest[] = [];
    const listen = (r: Request) => {
      requests.push(r.url());
    };
    page.on('request', listen);
    // its heartbeats, over its socket (or over HTTP if it fell back)
    const sent = deviceCalls(page, (c) => {
      if (c.type === 'heartbeat') beats.push(c.body as HeartbeatRequest);
    });
    expect(await page.locator('.pc-display__page').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.getByTestId('display-closed').evaluate((el) => el.childElementCount)).toBe(0);
    expect(await page.getByTestId('display-closed').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(0, 0, 0)',
    );
    // its regular heartbeat still goes, and says closed, showing nothing
    await until('a heartbeat while closed', async () => beats.length > 0, 30_000);
    expect(beats[0]).toMatchObject({ closed: true, nowPlaying: null, shows: { kind: 'blank' } });
    // the owner's health list: closed, and the display's last report says it shows nothing
    await until('the health list says closed, with a blank report', async () => {
      const h = await health();
      return h.state === 'closed' && h.shows?.kind === 'blank';
    });
    // nothing of the content was read while closed (a page lasts a second: an open display reads its pages)
    const content = requests.filter((u) => /\/media\/|\/api\/files\/|\/api\/playlists\//.test(u));
    expect(content).toEqual([]);
    page.off('request', listen);
    sent.stop();

    await api.json('PUT', `/api/screens/${screenId}`, { openingHours: null });
    await until('back to file A at opening', async () => (await shownFile(page)) === fileA);
    await until('the health list says it shows file A', async () => {
      const h = await health();
      return h.state !== 'closed' && h.shows?.kind === 'page' && h.shows.fileId === fileA;
    });
  });

  it('held on a stale page after its assignment changed, it turns "wrong content" after the minute', async () => {
    const { page } = display;
    // the display keeps its manifest as it is now: every later read answers this copy
    const stale = await (await page.request.get('/api/screens/device/me')).text();
    await page.route('**/api/screens/device/me', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: stale }),
    );
    holdManifest = true;
    const changed = Date.now();
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId: fileB } });
    await until('the health list expects file B', async () => {
      const h = await health();
      return h.expected.kind === 'file' && h.expected.fileId === fileB;
    });
    expect((await health()).state).not.toBe('wrong');
    // the display goes on showing file A, and says so (its report accepted: A is still its group's)
    const told: { shows: HeartbeatRequest['shows']; status: number }[] = [];
    const heard = deviceCalls(page, (c) => {
      if (c.type === 'heartbeat') told.push({ shows: (c.body as HeartbeatRequest).shows, status: c.status });
    });
    await until(
      'a report of file A accepted after the change',
      async () => told.some((t) => t.status === 200 && t.shows?.kind === 'page' && t.shows.fileId === fileA),
      30_000,
    );
    await until('the health list has the report of file A', async () => {
      const h = await health();
      return h.shows?.kind === 'page' && h.shows.fileId === fileA && Date.parse(h.lastSeenAt ?? '') > changed;
    });
    expect(await shownFile(page)).toBe(fileA);
    await until('the health list says wrong', async () => (await health()).state === 'wrong', 120_000);
    const wrong = await health();
    expect(Date.now() - changed).toBeGreaterThan(60_000);
    expect(wrong.since).not.toBeNull();
    expect(Date.parse(wrong.since ?? '')).toBeGreaterThanOrEqual(changed - 1000);
    console.log(`[health] stale display turned wrong ${Date.now() - changed} ms after its assignment changed`);

    heard.stop();
    // let go: the display reads its manifest, plays B, and is right again
    await page.unroute('**/api/screens/device/me');
    holdManifest = false;
    await page.reload();
    await until('the display plays file B', async () => (await shownFile(page)) === fileB, 30_000);
    await until('the health list says ok', async () => (await health()).state === 'ok', 30_000);
  }, 240_000);
});

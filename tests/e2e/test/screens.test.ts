// Screens (issue 12) in real browsers: a display pairs by the code it shows and plays what its screen is given; a
// schedule switches at its boundary on the display's own clock (controlled here); a network cut is played through
// and its plays are reported once afterwards; unpairing sends the display back to a new pairing code.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  signedInMember,
  uploadPdf,
} from './player-helpers';

let api: Api;
let display: PlayerBrowser;
let member: PlayerBrowser;
let fileA: string; // vertical.pdf, 3 pages of 1 s: the default playlist
let fileB: string; // noembed-sjis.pdf, 1 page: the weekday morning playlist
let listA: string;
let listB: string;

// Monday 2026-11-16 05:00 in Tokyo: a past day (play records may be up to 31 days old, never in the future).
const START = Date.parse('2026-11-15T20:00:00Z');
const BEFORE_NINE = Date.parse('2026-11-15T23:59:57Z'); // Monday 08:59:57 JST

beforeAll(async () => {
  api = await signedInMember();
  const [a, b] = await Promise.all([
    uploadPdf(api, 'vertical.pdf', 'Default content', 1),
    uploadPdf(api, 'noembed-sjis.pdf', 'Morning content', 1),
  ]);
  fileA = a.id;
  fileB = b.id;
  listA = await createPlaylist(api, 'All day', [fileA]);
  listB = await createPlaylist(api, 'Mornings', [fileB]);
  display = await openPlayerBrowser(null);
  member = await openPlayerBrowser(api);
}, 240_000);

afterAll(async () => {
  await display?.close();
  await member?.close();
});

const shownFile = (page: Page) => page.locator('.pc-display__page').getAttribute('data-file', { timeout: 20_000 });
const queued = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('pagecast.screen.plays') ?? '[]') as unknown[]).length);
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in time: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const totalPlays = async () =>
  (await api.json<{ plays: number }[]>('GET', '/api/screens/plays?from=2026-11-15&to=2026-11-17')).reduce(
    (n, r) => n + r.plays,
    0,
  );

describe('screens', () => {
  let screenId = '';
  let firstCode = '';

  it('a display pairs by the code it shows and starts playing what it is given', async () => {
    const { page } = display;
    await page.clock.install({ time: START });
    await page.goto('/screen');
    const codeEl = page.getByTestId('pairing-code');
    await until('a code', async () => /^[A-Z2-9]{6}$/.test((await codeEl.textContent()) ?? ''));
    firstCode = (await codeEl.textContent()) ?? '';
    expect(await page.getByRole('img', { name: 'ペアリング用リンクのQRコード' }).count()).toBe(1);

    const m = member.page;
    await m.goto('/screens');
    await m.getByLabel('ペアリングコード').fill(firstCode.toLowerCase());
    await m.getByLabel('スクリーン名').fill('Shop window');
    expect(await m.getByLabel('タイムゾーン').inputValue()).toBe('Asia/Tokyo');
    await m.getByRole('button', { name: 'ペアリング', exact: true }).click();
    const started = Date.now();
    await page.getByTestId('display-playing').waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    screenId = (await page.getByTestId('display-playing').getAttribute('data-screen')) ?? '';

    await api.json('PUT', `/api/screens/${screenId}`, {
      assignment: {
        kind: 'schedule',
        schedule: {
          parts: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', playlistId: listB }],
          defaultPlaylistId: listA,
        },
      },
    });
    expect(await shownFile(page)).toBe(fileA);
    // the member sees it online, playing that file
    const card = m.getByTestId(`screen-${screenId}`);
    await until('online with what it plays', async () => {
      await m.reload();
      return (
        (await card.getByTestId('screen-status').textContent()) === 'オンライン' &&
        ((await card.getByTestId('screen-now-playing').textContent()) ?? '').includes(fileA)
      );
    });
  });

  it('follows its schedule at the boundary, on its own clock', async () => {
    const { page } = display;
    await page.clock.pauseAt(BEFORE_NINE);
    await page.clock.runFor(1000);
    expect(await shownFile(page)).toBe(fileA); // 08:59:58
    for (let i = 0; i < 4; i++) {
      await page.clock.runFor(1000);
      await page.waitForTimeout(100);
    }
    await until('the morning playlist at 09:00', async () => (await shownFile(page)) === fileB);
  });

  it('keeps playing through a network cut and reports those plays once when back', async () => {
    const { page, context } = display;
    // everything recorded so far reaches the server first
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await until('queue sent', async () => (await queued(page)) === 0);
    const before = await totalPlays();

    await context.setOffline(true);
    for (let i = 0; i < 8; i++) {
      await page.clock.runFor(1000);
      await page.waitForTimeout(100);
    }
    const pending = await queued(page);
    expect(pending).toBeGreaterThanOrEqual(5);
    expect(await shownFile(page)).toBe(fileB); // still on screen, from the cache
    expect(await totalPlays()).toBe(before);

    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await until('offline plays sent', async () => (await queued(page)) === 0);
    expect(await totalPlays()).toBe(before + pending);
    // a second flush sends nothing more and counts nothing twice
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForTimeout(500);
    expect(await totalPlays()).toBe(before + pending);
    const rows = await api.json<{ fileId: string; screenId: string }[]>(
      'GET',
      '/api/screens/plays?from=2026-11-15&to=2026-11-17',
    );
    expect(new Set(rows.map((r) => r.screenId))).toEqual(new Set([screenId]));
    expect(rows.some((r) => r.fileId === fileB)).toBe(true);
  });

  it('unpaired by its member, it shows a new pairing code within seconds', async () => {
    const { page } = display;
    await page.clock.resume();
    const m = member.page;
    m.once('dialog', (d) => void d.accept());
    await m.goto('/screens');
    await m.getByTestId(`screen-${screenId}`).getByRole('button', { name: 'ペアリング解除' }).click();
    const codeEl = page.getByTestId('pairing-code');
    await codeEl.waitFor({ timeout: 15_000 });
    await until('a new code', async () => /^[A-Z2-9]{6}$/.test((await codeEl.textContent()) ?? ''));
    expect(await codeEl.textContent()).not.toBe(firstCode);
    // its credential is gone: the device calls answer 401
    const status = await page.evaluate(async () => (await fetch('/api/screens/device/me')).status);
    expect(status).toBe(401);
  });
});

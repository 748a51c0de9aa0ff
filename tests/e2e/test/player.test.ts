// The signage player on real converted PDFs: header, keys, fullscreen, autoplay on page durations with no blank
// frame, the image fallback card, and the login redirect for a visitor.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  openPlayerBrowser,
  type PlayerBrowser,
  playerState,
  recordPlayback,
  recorded,
  setDuration,
  signedInMember,
  type UploadedFile,
  until,
  uploadPdf,
  waitForSteps,
} from './player-helpers';

let api: Api;
let deck: UploadedFile; // vertical.pdf, 3 pages
let session: PlayerBrowser | undefined;

beforeAll(async () => {
  api = await signedInMember();
  deck = await uploadPdf(api, 'vertical.pdf', 'Vertical deck', 5);
}, 180_000);

afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('signage player', () => {
  it('shows the header before playing, moves with the keys, plays full-screen on page durations and wraps', async () => {
    expect(deck.pageCount).toBe(3);
    session = await openPlayerBrowser(api);
    const { page } = session;
    await page.goto(`/signage/${deck.id}`);
    const header = page.getByTestId('player-header');
    await header.waitFor();
    expect(await page.getByTestId('player-title').textContent()).toBe('Vertical deck');
    expect(await page.getByTestId('player-page-of').textContent()).toBe('1 / 3 ページ');
    expect(await page.getByTestId('player-counter').textContent()).toBe('1 / 3');
    expect(await header.textContent()).toContain('ESCキーで再生を停止します');
    // the display mode starts from the file's (fit-height, 縦長) and the viewer can pick another
    expect(await page.getByTestId('player-mode').inputValue()).toBe('fit-height');
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img[data-front="true"]')?.naturalWidth);
    expect((await playerState(page)).imageShown).toBe(true);
    await page.getByTestId('player-mode').selectOption({ label: '横長' });
    expect((await playerState(page)).mode).toBe('fit-width');

    // keys: right and left move a page
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('player-page-of').filter({ hasText: '2 / 3 ページ' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('player-counter').filter({ hasText: '3 / 3' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('player-counter').filter({ hasText: '2 / 3' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('player-counter').filter({ hasText: '1 / 3' }).waitFor();

    // 1 s per page (PUT /api/files/:id/duration) reaches the open player live, at the next boundary
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-live') === 'open',
    );
    await setDuration(api, deck.id, 1);
    // the change arrives and waits for the next boundary: the page on screen keeps its 5 s
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-update-pending') === 'true',
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getByTestId('remote-mf_player').getAttribute('data-duration-ms')).toBe('5000');
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('player-counter').filter({ hasText: '2 / 3' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-duration-ms') === '1000',
      undefined,
      { timeout: 10_000 },
    );
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('player-counter').filter({ hasText: '1 / 3' }).waitFor();

    // fullscreen, then Space plays: the header goes, pages advance every second and wrap to the first
    await page.getByTestId('player-fullscreen').click();
    await page.waitForFunction(() => document.fullscreenElement !== null);
    await page.getByTestId('player-fullscreen').filter({ hasText: 'フルスクリーンを終了' }).waitFor();
    await recordPlayback(page);
    await page.keyboard.press('Space');
    await header.waitFor({ state: 'detached' });
    const { steps, blankFrames, frames } = await waitForSteps(page, (s) => s.length >= 5, 15_000);
    const pages = steps.map((s) => s.page);
    expect(pages.slice(0, 5)).toEqual([0, 1, 2, 0, 1]);
    const gaps = steps.slice(1, 5).map((s, i) => s.at - (steps[i] as { at: number }).at);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThan(800);
      expect(gap).toBeLessThan(2500);
    }
    // never a frame without a decoded image between pages
    expect(frames).toBeGreaterThan(30);
    expect(blankFrames).toBe(0);

    // a mouse move while playing shows the header (pause, close) and the page controls; still, they hide again
    await page.mouse.move(640, 400);
    await header.waitFor();
    expect(await page.getByTestId('player-play').textContent()).toBe('一時停止');
    await header.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await playerState(page)).playing).toBe(true);

    // Escape stops playback and leaves fullscreen
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.fullscreenElement === null);
    await header.waitFor();
    expect((await playerState(page)).playing).toBe(false);
    const stoppedAt = (await playerState(page)).pageIndex;
    await page.waitForTimeout(1500);
    expect((await playerState(page)).pageIndex).toBe(stoppedAt);

    // Space toggles play back on (the Play button shows Pause while playing)
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-playing') === 'true',
    );
    await page.keyboard.press('Space');
    await page.getByTestId('player-play').filter({ hasText: '再生' }).waitFor();
  });

  it('on a touch screen a tap shows the controls while playing; pause holds the page; close leaves the player', async () => {
    await setDuration(api, deck.id, 1);
    session = await openPlayerBrowser(api, { touch: true });
    const { page } = session;
    await page.goto(`/signage/${deck.id}?autoplay=true`);
    const root = page.getByTestId('remote-mf_player');
    const header = page.getByTestId('player-header');
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-player="signage"]');
      const front = el?.querySelector<HTMLImageElement>('img[data-front="true"]');
      return (
        el?.getAttribute('data-playing') === 'true' &&
        el.getAttribute('data-duration-ms') === '1000' &&
        front?.naturalWidth
      );
    });
    // playing: nothing over the page
    expect(await header.count()).toBe(0);
    expect(await root.getAttribute('data-controls')).toBe('hidden');

    // a tap shows the header and the page controls, which go again after a few seconds without a touch
    await page.tap('[data-testid="player-stage"]', { position: { x: 195, y: 420 } });
    await header.waitFor();
    expect(await root.getAttribute('data-controls')).toBe('shown');
    expect((await playerState(page)).playing).toBe(true); // the tap that shows the controls presses none of them
    expect(await page.getByTestId('player-controls').isVisible()).toBe(true);
    await header.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await root.getAttribute('data-controls')).toBe('hidden');

    // tap, then pause: the page on screen stays past its 1 s
    await page.tap('[data-testid="player-stage"]', { position: { x: 195, y: 600 } });
    await header.waitFor();
    await page.getByTestId('player-play').tap();
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-playing') === 'false',
    );
    expect(await page.getByTestId('player-play').textContent()).toBe('再生');
    await recordPlayback(page);
    const pausedAt = (await playerState(page)).pageIndex;
    // three of its durations by the page's own clock (animation frames keep coming: it is alive, only paused)
    await page.evaluate(() => {
      (window as unknown as { __pausedAt: number }).__pausedAt = performance.now();
    });
    await page.waitForFunction(
      () => performance.now() - (window as unknown as { __pausedAt: number }).__pausedAt > 3000,
      undefined,
      { timeout: 10_000, polling: 'raf' },
    );
    const { steps } = await recorded(page);
    expect(steps.map((s) => s.page)).toEqual([pausedAt]);
    expect(await header.isVisible()).toBe(true);

    // the close button leaves the player: opened on its own, in a tab with nothing before it, it closes that tab
    // (back to whatever opened it); a browser that keeps the tab open goes to the start page, the dashboard
    const closed = page
      .waitForEvent('close')
      .then(() => 'closed' as const)
      .catch(() => 'home' as const); // the wait ends when the test closes the page later
    const home = page
      .waitForURL((url) => url.pathname === '/')
      .then(() => 'home' as const)
      .catch(() => 'closed' as const); // the page closed under the wait
    await page.getByTestId('player-leave').tap();
    if ((await Promise.race([closed, home])) === 'home')
      await page.getByTestId('remote-mf_player').waitFor({ state: 'detached' });
  });

  it('autoplay=true starts playing at once; a page whose image cannot load shows the fallback card', async () => {
    // the worker is blocked here so that page.route sees the image requests
    session = await openPlayerBrowser(api, { serviceWorkers: 'block' });
    const { page } = session;
    await page.route('**/media/**', (route) => route.abort());
    await page.goto(`/signage/${deck.id}?autoplay=true`);
    const card = page.getByTestId('player-image-fallback');
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('Vertical deck');
    expect(text).toContain('ページ 1');
    expect(text).toContain('画像を読み込めませんでした');
    expect((await playerState(page)).playing).toBe(true);
    // autoplay goes on past a broken page
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-page-index') === '1',
      undefined,
      { timeout: 5000 },
    );
    expect(await card.textContent()).toContain('ページ 2');
  });

  it('without the live stream it looks again at every page change with If-None-Match, and still applies updates', async () => {
    session = await openPlayerBrowser(api, { serviceWorkers: 'block' });
    const { page } = session;
    await page.route('**/api/events**', (route) => route.abort());
    const conditional: number[] = [];
    const isConditional = (req: { url(): string; headers(): Record<string, string> }) =>
      req.url().includes(`/api/files/${deck.id}?signage_mode=true`) && Boolean(req.headers()['if-none-match']);
    page.on('response', (res) => {
      if (isConditional(res.request())) conditional.push(res.status());
    });
    await setDuration(api, deck.id, 1);
    await page.goto(`/signage/${deck.id}?autoplay=true`);
    await page.locator('[data-player="signage"][data-live="down"]').waitFor();
    await recordPlayback(page);
    await waitForSteps(page, (s) => s.length >= 5, 10_000);
    // each page change asks again; on a loaded machine a read slower than a page is replaced by the next page's (the
    // cancelled one has no answer): wait for two answers rather than counting them after five pages
    await until('two conditional answers', async () => conditional.length >= 2, 20_000);
    // unchanged: the server answers 304 and sends no body
    expect(conditional.every((status) => status === 304)).toBe(true);
    // a change is still picked up, at a later page change
    await setDuration(api, deck.id, 2);
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-duration-ms') === '2000',
      undefined,
      { timeout: 10_000 },
    );
    expect(conditional).toContain(200);
    await setDuration(api, deck.id, 1);
  });

  it('starts its first reads and downloads from the page, each once: the player finds them under way', async () => {
    session = await openPlayerBrowser(api, { serviceWorkers: 'block' });
    const { page } = session;
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname + new URL(r.url()).search));
    const response = await page.goto(`/signage/${deck.id}`);
    const html = (await response?.text()) ?? '';
    // the gateway lists the player remote's manifest, entry and route chunks in the page (it serves that remote)
    // (the lean container: the federation runtime is the shell's, not a second copy)
    expect(html).toContain('<link rel="preload" href="/remotes/player/mf-manifest.lean.json" as="fetch"');
    expect(html).toContain('<link rel="preload" href="/remotes/player/remoteEntry.lean.js" as="script"');
    // and the remotes' list, which the shell's fetch() then takes (counted once below)
    expect(html).toContain('<link rel="preload" href="/remotes.json" as="fetch"');
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img[data-front="true"]')?.naturalWidth);
    const count = (path: string, list = requests) => list.filter((r) => r === path).length;
    // Started by the shell's entry, handed to the player through the query cache: not asked twice. Reads after the
    // live stream opened are its resync (the gateway tells a stream that opens on a file changed in the last minute,
    // and less than 5 s before the page's first read, to refetch: this deck may be that fresh), not a second start.
    const opened = requests.findIndex((r) => r.startsWith('/api/events'));
    const start = opened === -1 ? requests : requests.slice(0, opened);
    // the stream says when the page first read, in the server's time (the early reads' Date header)
    const since = Number(new URL(requests[opened] ?? '', 'http://x').searchParams.get('since'));
    expect(since).toBeGreaterThan(Date.now() - 60_000);
    expect(since).toBeLessThanOrEqual(Date.now());
    expect(count('/api/auth/user', start)).toBe(1);
    expect(count(`/api/files/${deck.id}?signage_mode=true`, start)).toBe(1);
    expect(count(`/api/files/${deck.id}/pages?signage_mode=true`, start)).toBe(1);
    expect(count('/api/auth/user')).toBe(1);
    expect(count('/remotes.json')).toBe(1);
    // the preloads were the downloads the federation runtime made (a mismatch would fetch again)
    expect(count('/remotes/player/mf-manifest.lean.json')).toBe(1);
    expect(count('/remotes/player/remoteEntry.lean.js')).toBe(1);
    // one federation runtime on the page: the self-contained container is not loaded beside the lean one
    expect(count('/remotes/player/mf-manifest.json')).toBe(0);
    expect(count('/remotes/player/remoteEntry.js')).toBe(0);
    const first = (await playerState(page)).frontSrc;
    expect(first).toMatch(/^\/media\//);
    expect(count(first)).toBe(1);
    // the signage page brings none of the player's other pages (zod, the playlist editor, the QR code generator)
    const scripts = requests.filter((r) => r.startsWith('/remotes/player/') && r.endsWith('.js'));
    for (const script of scripts) {
      const body = await (await page.request.get(script)).text();
      expect(body, script).not.toContain('ZodError');
    }
  });

  it("is black from its first paint: the page carries the player's loading frame, which stays until the player draws", async () => {
    session = await openPlayerBrowser(api);
    const { page } = session;
    // what the root holds, at every change from the page's parsing on: the splash, the shell's spinner, the frame...
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { rootSeen: string[] }).rootSeen = seen;
      new MutationObserver(() => {
        // an empty root is a moment inside a task (the parser between the root and its child, a commit between
        // removing and adding), never a painted frame: not counted
        const first = document.getElementById('root')?.firstElementChild;
        const now = first ? (first.getAttribute('class') ?? first.tagName) : undefined;
        if (now && seen.at(-1) !== now) seen.push(now);
      }).observe(document, { childList: true, subtree: true });
    });
    // the player remote held back: the shell starts and draws its route, which waits for it
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/remoteEntry*.js', async (route) => {
      await held;
      await route.continue();
    });
    const response = await page.goto(`/signage/${deck.id}`, { waitUntil: 'commit' });
    const html = (await response?.text()) ?? '';
    expect(html).toContain('<div id="root"><div class="pc-player-frame" data-testid="player-frame">');
    expect(html).toContain('ESCキーで再生を停止します');
    expect(html).not.toContain('class="pc-splash"');
    // the shell's own frame: a node React made (the page's frame is drawn again, not hydrated), black, in Japanese
    await page.waitForFunction(() => {
      const frame = document.querySelector('[data-testid="player-frame"]');
      return frame !== null && Object.keys(frame).some((key) => key.startsWith('__react'));
    });
    const frame = page.getByTestId('player-frame');
    expect(await frame.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');
    expect(await frame.locator('.pc-player-hint').textContent()).toBe('ESCキーで再生を停止します');
    expect(await frame.getByRole('status').textContent()).toBe('ファイルを読み込み中...');
    expect(await page.getByTestId('player-header').count()).toBe(0);
    release();
    await page.getByTestId('player-header').waitFor();
    expect(await page.getByTestId('player-frame').count()).toBe(0);
    // never the site's light splash or the shell's plain spinner in between: the frame, then the player
    const seen = await page.evaluate(() => (window as unknown as { rootSeen: string[] }).rootSeen);
    expect(seen.map((c) => c.split(' ')[0])).toEqual(['pc-player-frame', 'pc-player']);
  });

  it("in another language, the page preloads that language's catalogue, which the shell then loads once", async () => {
    session = await openPlayerBrowser(api, { serviceWorkers: 'block', locale: 'fr-FR' });
    const { page } = session;
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const html = (await (await page.goto(`/signage/${deck.id}`))?.text()) ?? '';
    const catalogue = /<link rel="preload" href="(\/catalogue-fr\.[0-9a-f]+\.js)" as="script"/.exec(html)?.[1];
    expect(catalogue).toBeDefined();
    await page.getByTestId('player-header').waitFor();
    expect(await page.getByTestId('player-play').textContent()).toBe('Lire'); // drawn in French
    expect(requests.filter((r) => r === catalogue)).toHaveLength(1);
    expect(requests.filter((r) => r.includes('/catalogue-'))).toEqual([catalogue]);
  });

  it('a visitor is sent to log in: location remembered, toast, /login after 1 s', async () => {
    session = await openPlayerBrowser(null);
    const { page } = session;
    const started = Date.now();
    await page.goto(`/signage/${deck.id}?autoplay=true`);
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('ログインが必要です');
    await page.waitForURL('**/login');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await page.evaluate(() => sessionStorage.getItem('pagecast.returnPage'))).toBe(
      `/signage/${deck.id}?autoplay=true`,
    );
  });
});

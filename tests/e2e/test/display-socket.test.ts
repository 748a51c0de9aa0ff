// One connection per display, in a real browser (docs/device-socket.md): a paired display holds its socket and
// sends its heartbeats and play batches over it, learns of a change of what it plays from a pushed manifest version,
// and polls nothing (no heartbeat POST, no live stream, no manifest read but after a change, its content read over the
// socket); its revocation closes the socket and it shows a pairing code again. With the WebSocket blocked (a proxy that refuses it) the display
// falls back to the HTTP device API and the live stream by itself: it still plays and reports.
import type { FleetHealth, ScreenHealth } from '@pagecast/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  deviceCalls,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  pairingCode,
  signedInMember,
  until,
  uploadPdf,
} from './player-helpers';

let api: Api;
let fileId = '';
const browsers: PlayerBrowser[] = [];
const SUFFIX = Date.now().toString(36);

const shownFile = (page: Page) =>
  page
    .locator('.pc-display__page')
    .getAttribute('data-file', { timeout: 200 })
    .catch(() => null);
async function health(name: string, screenId: string): Promise<ScreenHealth | undefined> {
  const list = await api.json<FleetHealth>('GET', `/api/screens/health?q=${encodeURIComponent(name)}`);
  return list.items.find((s) => s.screenId === screenId);
}
/** Every request the page makes from now on (paths with their query). */
function requestsOf(page: Page) {
  const seen: Array<{ method: string; path: string; at: number }> = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    seen.push({ method: r.method(), path: url.pathname + url.search, at: Date.now() });
  });
  return seen;
}

beforeAll(async () => {
  api = await signedInMember();
  fileId = (await uploadPdf(api, 'vertical.pdf', 'Socket poster', 1)).id;
}, 120_000);

afterAll(async () => {
  for (const b of browsers) await b.close();
});

describe('one connection per display', () => {
  it('sends its heartbeats and plays over its socket, hears its changes there, polls nothing; revoked, it pairs again', async () => {
    const display = await openPlayerBrowser(null, { serviceWorkers: 'block' });
    browsers.push(display);
    const { page } = display;
    const requests = requestsOf(page);
    const calls = deviceCalls(page);
    const name = `Socket ${SUFFIX}`;
    const screenId = await pairDisplay(api, page, { name, timeZone: 'Asia/Tokyo' });
    await until('the socket is live', async () => calls.socket.received.some((f) => f.type === 'manifest'), 20_000);
    const liveAt = Date.now();

    // a change of what it plays: pushed as a new manifest version, read once, played
    const manifests = () => calls.socket.received.filter((f) => f.type === 'manifest').length;
    const before = manifests();
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId } });
    await until('a pushed manifest version', async () => manifests() > before, 10_000);
    await until('the display plays the file', async () => (await shownFile(page)) === fileId, 30_000);

    // its heartbeats and its proof of play go over the socket, answered as the HTTP routes answer (the page sends its
    // plays every 30 s, and at once when the browser says it is back online: told so here, not to wait a whole period)
    await until(
      'a heartbeat and a play batch answered over the socket',
      async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('online')));
        return (
          calls.calls.some((c) => c.via === 'socket' && c.type === 'heartbeat' && c.status === 200) &&
          calls.calls.some((c) => c.via === 'socket' && c.type === 'plays' && c.status === 200)
        );
      },
      40_000,
      1000,
    );
    await until('the owner sees it ok, showing the file', async () => {
      const h = await health(name, screenId);
      return h?.state === 'ok' && h.shows?.kind === 'page' && h.shows.fileId === fileId;
    });
    // a while longer: polling would show
    await new Promise((r) => setTimeout(r, 16_000));
    const since = requests.filter((r) => r.at >= liveAt);
    expect(calls.calls.filter((c) => c.via === 'http')).toEqual([]);
    expect(since.filter((r) => r.path.startsWith('/api/events'))).toEqual([]);
    expect(since.filter((r) => r.method === 'POST' && r.path.startsWith('/api/screens/device/'))).toEqual([]);
    // the manifest is read only after a pushed change (one here)
    expect(since.filter((r) => r.path === '/api/screens/device/me').length).toBeLessThanOrEqual(manifests() - before);
    // its content (the file's pages) read over the socket, answered by file-conversion with its ETag; none over HTTP
    expect(since.filter((r) => r.path.startsWith('/api/files/') || r.path.startsWith('/api/playlists/'))).toEqual([]);
    const pagesRead = calls.socket.sent.find(
      (f) => f.type === 'pages' && (f.body as { id?: string } | undefined)?.id === fileId,
    );
    expect(pagesRead).toBeTruthy();
    const answered = calls.socket.received.find((f) => f.type === 'reply' && f.ref === pagesRead?.ref);
    expect(answered).toMatchObject({ status: 200, etag: expect.stringMatching(/^W\//) });
    expect(Array.isArray(answered?.body) && answered.body.length).toBeGreaterThan(0);
    expect(calls.socket.closed).toBe(0);

    // revoked: the socket closes at once and the display shows a pairing code again
    await api.json('DELETE', `/api/screens/${screenId}`);
    const revokedAt = Date.now();
    await until('the socket closed', async () => calls.socket.closed > 0, 5000, 20);
    console.log(`[display-socket] socket closed ${Date.now() - revokedAt} ms after the revocation was answered`);
    expect(Date.now() - revokedAt).toBeLessThan(2000);
    expect((await pairingCode(page)).length).toBe(6);
    calls.stop();
  }, 180_000);

  it('with the WebSocket blocked it falls back to HTTP and the live stream by itself, and still plays and reports', async () => {
    const display = await openPlayerBrowser(null, { serviceWorkers: 'block' });
    browsers.push(display);
    const { page, context } = display;
    // a proxy on the way that refuses WebSockets: every socket closes before it is answered
    let refused = 0;
    await context.routeWebSocket(/\/api\/screens\/device\/socket$/, (ws) => {
      refused += 1;
      void ws.close({ code: 1006 });
    });
    const requests = requestsOf(page);
    const calls = deviceCalls(page);
    const name = `Blocked ${SUFFIX}`;
    const screenId = await pairDisplay(api, page, { name, timeZone: 'Asia/Tokyo' });
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId } });
    await until('the display plays the file', async () => (await shownFile(page)) === fileId, 30_000);
    await until(
      'a heartbeat and a play batch answered over HTTP',
      async () =>
        calls.calls.some((c) => c.via === 'http' && c.type === 'heartbeat' && c.status === 200) &&
        calls.calls.some((c) => c.via === 'http' && c.type === 'plays' && c.status === 200),
      40_000,
    );
    expect(refused).toBeGreaterThanOrEqual(2);
    expect(calls.calls.filter((c) => c.via === 'socket')).toEqual([]);
    // the live stream carries its changes instead
    expect(requests.some((r) => r.path.startsWith('/api/events'))).toBe(true);
    await until('the owner sees it ok, showing the file', async () => {
      const h = await health(name, screenId);
      return h?.state === 'ok' && h.shows?.kind === 'page' && h.shows.fileId === fileId;
    });
    // a change still reaches it (through the live stream): unassigned, it stops playing the file
    await api.json('PUT', `/api/screens/${screenId}`, { assignment: { kind: 'none' } });
    await until('the display leaves the file', async () => (await shownFile(page)) === null, 20_000);
    calls.stop();
  }, 180_000);
});

// @vitest-environment jsdom
// A display never gives up (retry.ts): /screen in jsdom with the real catalogues, on fake timers; only the network
// is an in-test server (fetch) that fails as a shop's network does (a 429, a 503, a cut) and then comes back.
import { initI18n } from '@pagecast/i18n';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisplayPage } from '../src/features/display/components/display-page';
import { createWaitingBoard, RETRY_MAX_MS, retryDelay } from '../src/features/display/model/retry';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const PAIRING = {
  pairingId: '6a1f00000000000000000009',
  code: 'K7M2QX',
  pollSecret: 'a-poll-secret-of-the-display',
  expiresAt: '2030-01-01T00:00:00.000Z',
};

/** real time, taken before the fake timers: the signing key is made by WebCrypto on real time */
const realSetTimeout = globalThis.setTimeout;
const realWait = (ms: number) => new Promise<void>((r) => realSetTimeout(r, ms));
let i18n: Awaited<ReturnType<typeof initI18n>>;
let root: Root;
let host: HTMLDivElement;
/** every request the display made: method, path, and when (fake time) */
let calls: { method: string; path: string; at: number }[];
/** the network: answers a request, or throws as a cut does */
let network: (method: string, path: string) => Response;

beforeAll(async () => {
  i18n = await initI18n({ lng: 'en' });
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
  vi.useFakeTimers({ now: Date.parse('2026-12-06T09:00:00.000Z') });
  calls = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://app.test').pathname;
    const method = init?.method ?? 'GET';
    calls.push({ method, path, at: Date.now() });
    return network(method, path);
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** lets `ms` of fake time pass, with React's work and the answers' promises in between */
async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
const code = () => host.querySelector('[data-testid="pairing-code"]')?.textContent;
const waitingLine = () => host.querySelector<HTMLElement>('[data-testid="display-waiting"]');
const codeRequests = () => calls.filter((c) => c.method === 'POST' && c.path === '/api/screens/pairing');

describe('the retry wait', () => {
  it('doubles from 1 s to a ceiling of 15 s, each wait drawn between half and all of it', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => retryDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, () => 0))).toEqual([500, 1000, 2000, 4000, 7500]);
    expect(retryDelay(3, () => 0.5)).toBe(3000);
    for (let n = 1; n < 100; n++) expect(retryDelay(n)).toBeLessThanOrEqual(RETRY_MAX_MS);
  });

  it('the board shows the most important wait first, and forgets a wait once answered', () => {
    const board = createWaitingBoard();
    board.wait('plays', 5);
    board.wait('pairing-code', 7);
    expect(board.first()).toEqual({ what: 'pairing-code', retryAt: 7 });
    board.done('pairing-code');
    expect(board.first()).toEqual({ what: 'plays', retryAt: 5 });
    board.done('plays');
    expect(board.first()).toBeNull();
  });
});

describe('/screen never gives up', () => {
  it('a display whose first two code requests fail gets a code within 30 s of the network returning', async () => {
    let down = true;
    let failures = 0;
    network = (method, path) => {
      if (method === 'POST' && path === '/api/screens/pairing') {
        if (down) {
          failures += 1;
          // ten displays of one shop rebooted behind one address, then the service was restarting, then a cut
          if (failures === 1) return json({ code: 'RATE_LIMITED', message: 'slow down' }, 429);
          if (failures === 2) return json({ code: 'SERVICE_UNAVAILABLE', message: 'later' }, 503);
          throw new TypeError('Failed to fetch');
        }
        return json(PAIRING, 201);
      }
      if (path.endsWith('/poll')) return json({ status: 'waiting' });
      return json({ code: 'NOT_FOUND', message: 'no' }, 404);
    };
    await act(async () => root.render(<DisplayPage />));
    // down for two minutes: it keeps asking, waiting longer each time but never more than 15 s
    await pass(120_000);
    expect(code()).toBe('······');
    const tries = codeRequests();
    expect(tries.length).toBeGreaterThan(5);
    const gaps = tries.slice(1).map((c, i) => c.at - (tries[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(RETRY_MAX_MS);
    expect(Math.max(...gaps)).toBeGreaterThan(4000);
    expect(waitingLine()?.dataset.waiting).toBe('pairing-code');

    down = false;
    await pass(30_000);
    expect(code()).toBe(PAIRING.code);
    expect(waitingLine()).toBeNull();
    // it polls its code (once the key it will sign with is made: WebCrypto, on real time), and an unpaired display
    // never asked for a device's screen (no 401 in the console)
    const polled = () => calls.some((c) => c.path.endsWith('/poll'));
    for (let i = 0; i < 50 && !polled(); i++) {
      await pass(1000);
      await act(async () => new Promise<void>((r) => queueMicrotask(r)));
      // a bounded wait in real time (up to 50 × 50 ms), not a tick: on a busy machine the key takes longer than ticks
      await realWait(50);
    }
    expect(polled()).toBe(true);
    expect(calls.some((c) => c.path === '/api/screens/device/me')).toBe(false);
  });

  it('a poll that fails backs off and says so, then polls every second again; an unknown pairing gets a new code', async () => {
    let pollsDown = true;
    let gone = false;
    let codes = 0;
    network = (method, path) => {
      if (method === 'POST' && path === '/api/screens/pairing') {
        codes += 1;
        return json({ ...PAIRING, code: codes === 1 ? 'K7M2QX' : 'P3R4ST' }, 201);
      }
      if (path.endsWith('/poll')) {
        if (gone) return json({ code: 'NOT_FOUND', message: 'no' }, 404);
        if (pollsDown) return json({ code: 'SERVICE_UNAVAILABLE', message: 'later' }, 503);
        return json({ status: 'waiting' });
      }
      return json({ code: 'NOT_FOUND', message: 'no' }, 404);
    };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(code()).toBe('K7M2QX');
    await pass(60_000);
    const polls = () => calls.filter((c) => c.path.endsWith('/poll'));
    // a poll a second would be 60; backing off it asks far less (and never waits more than 15 s)
    expect(polls().length).toBeLessThan(15);
    expect(waitingLine()?.dataset.waiting).toBe('pairing-status');
    expect(code()).toBe('K7M2QX');

    pollsDown = false;
    await pass(16_000);
    expect(waitingLine()).toBeNull();
    const before = polls().length;
    await pass(5000);
    expect(polls().length - before).toBeGreaterThanOrEqual(4);

    gone = true;
    await pass(2000);
    expect(code()).toBe('P3R4ST');
  });

  it('once paired, it reads its screen until it answers (asking no new code meanwhile); a 401 then means unpaired', async () => {
    let me: 'down' | 'revoked' = 'down';
    let claimed = false;
    network = (method, path) => {
      if (method === 'POST' && path === '/api/screens/pairing') return json(PAIRING, 201);
      if (path.endsWith('/poll')) return json(claimed ? { status: 'paired', screenId: 's1' } : { status: 'waiting' });
      if (path === '/api/screens/device/me') {
        if (me === 'down') throw new TypeError('Failed to fetch');
        return json({ code: 'UNAUTHORIZED', message: 'no' }, 401);
      }
      return json({ code: 'NOT_FOUND', message: 'no' }, 404);
    };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(code()).toBe(PAIRING.code);
    claimed = true;
    await pass(1500);
    await pass(60_000);
    const reads = calls.filter((c) => c.path === '/api/screens/device/me');
    expect(reads.length).toBeGreaterThan(4);
    expect(waitingLine()?.dataset.waiting).toBe('screen');
    expect(codeRequests()).toHaveLength(1);

    me = 'revoked';
    await pass(16_000);
    expect(codeRequests()).toHaveLength(2);
    expect(code()).toBe(PAIRING.code);
    expect(localStorage.getItem('pagecast.screen.device')).toBeNull();
  });

  it('says what it waits for, and when it tries again, in English, Japanese and French', async () => {
    network = () => {
      throw new TypeError('Failed to fetch');
    };
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(waitingLine()?.textContent).toMatch(
      /^Waiting for a pairing code from the server\. Trying again in \d+ seconds?\.$/,
    );
    act(() => root.render(null));
    await i18n.changeLanguage('ja');
    await act(async () => root.render(<DisplayPage />));
    await pass(0);
    expect(waitingLine()?.textContent).toMatch(
      /^サーバーからペアリングコードを受け取るのを待っています。\d+秒後にもう一度試します。$/,
    );
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    expect(waitingLine()?.textContent).toMatch(
      /^En attente d’un code d’appairage du serveur\. Nouvel essai dans \d+ secondes?\.$/,
    );
  });
});

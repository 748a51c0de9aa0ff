// Fleet health on the owner's pages, on a real paired display: its network cut, it turns offline on the
// owner's open Screens page without a reload; past its group's 1-minute threshold (the screens service's test
// clock moves time, and its sweep runs at once) the owner gets an e-mail linking to the screen's health; its network
// back, it recovers on the page and a recovery e-mail follows.
import type { FleetHealth } from '@pagecast/contracts';
import type { WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Api, openPlayerBrowser, type PlayerBrowser, pairDisplay, signedInMember, until } from './player-helpers';

let api: Api;
let display: PlayerBrowser;
let owner: PlayerBrowser;
let screenId = '';
/** the display's open sockets, and whether its network is cut (new ones then close at once) */
const sockets = new Set<WebSocketRoute>();
let networkCut = false;
const NAME = `Health ${Date.now().toString(36)}`;

/** the state the owner's open Screens page shows for the screen */
const shownState = () =>
  owner.page
    .getByTestId(`screen-${screenId}`)
    .getByTestId('health-state')
    .getAttribute('data-state', { timeout: 500 })
    .catch(() => null);

/**
 * Moves the screens service's test clock; its incident sweep runs then. Another sweep holding the lease (the 15-s
 * one) makes this one skip: moved by 0 again until a sweep ran at the new time. Needs the test stack.
 */
async function moveClock(body: { ms: number } | { at: null }) {
  const stackEnv = inject('stackEnv');
  if (!stackEnv?.SCREENS_URL) throw new Error('needs the test stack (SCREENS_URL), not E2E_BASE_URL');
  const post = async (move: object) => {
    const res = await fetch(`${stackEnv.SCREENS_URL}/internal/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(move),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`test clock: ${res.status} ${text} (is screens.clock a failpoint?)`);
    console.log(`[screens-health] clock ${JSON.stringify(move)}: ${text}`);
    return JSON.parse(text) as { sweep?: { swept: boolean } };
  };
  let moved = await post(body);
  for (let i = 0; 'ms' in body && i < 50 && moved.sweep?.swept === false; i++) {
    await new Promise((r) => setTimeout(r, 200));
    moved = await post({ ms: 0 });
  }
}

interface Mail {
  id: string;
  subject?: string;
  text?: string;
  html?: string;
  headers?: { to?: string };
}
const linksIn = (mail: Mail) => `${mail.text ?? ''} ${mail.html ?? ''}`;
/** The owner's screen e-mails (the account's verification e-mail went to the same address before) */
async function mailsToOwner(): Promise<Mail[]> {
  const res = await fetch(`${inject('mailUrl')}/email`);
  return ((await res.json()) as Mail[]).filter(
    (m) => m.headers?.to?.includes(api.member.email) && linksIn(m).includes('/screens/health'),
  );
}

/** The screen's last heartbeat as the health list has it (to wait for a fresh one). */
async function lastSeen(): Promise<string | null> {
  const list = await api.json<FleetHealth>('GET', `/api/screens/health?q=${encodeURIComponent(NAME)}`);
  return list.items.find((s) => s.screenId === screenId)?.lastSeenAt ?? null;
}

beforeAll(async () => {
  api = await signedInMember();
  display = await openPlayerBrowser(null, { serviceWorkers: 'block' });
  // The display's socket goes through the test, so a cut network cuts it too: a route of HTTP requests leaves an
  // open WebSocket alone, and Chromium's offline emulation does not close one either.
  await display.context.routeWebSocket(/\/api\/screens\/device\/socket$/, (ws) => {
    if (networkCut) {
      void ws.close();
      return;
    }
    sockets.add(ws);
    ws.connectToServer();
  });
  screenId = await pairDisplay(api, display.page, { name: NAME, timeZone: 'Europe/Paris' });
  // its group alerts after 1 minute
  const group = await api.json<{ id: string }>('POST', '/api/screens/groups', {
    name: `Lobby ${NAME}`,
    screenIds: [screenId],
    alertAfterMinutes: 1,
  });
  // it shows a takeover's message until ended: a message has no page time, so a test clock moved minutes ahead
  // cannot make the display's picture look frozen (its report's shownAt is on the display's own clock)
  await api.json('POST', '/api/screens/takeovers', {
    target: { kind: 'groups', groupIds: [group.id] },
    content: { kind: 'message', title: 'Open today', body: 'Welcome' },
    minutes: null,
  });
  await until(
    'the display shows the message',
    async () => (await display.page.getByTestId('display-message').count()) > 0,
    30_000,
  );
  owner = await openPlayerBrowser(api, { locale: 'en-US', serviceWorkers: 'block' });
  await owner.page.goto('/screens');
}, 300_000);

afterAll(async () => {
  await display?.close();
  await owner?.close();
  // real time again for the files after this one
  await moveClock({ at: null }).catch(() => undefined);
});

describe("a screen's health on the owner's pages, and its e-mails", () => {
  it("a display whose network is cut turns offline on the owner's open Screens page, without a reload", async () => {
    await until('the screen is ok on the page', async () => (await shownState()) === 'ok', 60_000);
    // a reload would lose this mark
    await owner.page.evaluate(() => {
      (window as { __healthMark?: number }).__healthMark = 1;
    });
    await display.context.route('**/*', (route) => route.abort());
    networkCut = true;
    for (const ws of sockets) await ws.close();
    sockets.clear();
    // two heartbeats missed (35 s), then the next health read (at most 15 s, or the stream)
    await until('offline on the page', async () => (await shownState()) === 'offline', 90_000).catch(async (err) => {
      console.log('[screens-health] shown', await shownState(), 'last seen', await lastSeen(), 'now', new Date());
      throw err;
    });
    expect(await owner.page.evaluate(() => (window as { __healthMark?: number }).__healthMark)).toBe(1);
    const reason = await owner.page.getByTestId(`screen-${screenId}`).getByTestId('health-reason').textContent();
    // "offline since <time>", in the page's language (the member's, or the browser's)
    expect(reason).toMatch(/No heartbeat since |から応答がありません|Aucun signal depuis |Nessun segnale da /);
  }, 150_000);

  it('past the threshold, one e-mail arrives with the link to the screen', async () => {
    expect(await mailsToOwner()).toEqual([]);
    // the threshold (1 minute offline) passes: the incident opens; a minute on, its grouping window has passed
    await moveClock({ ms: 61_000 });
    await moveClock({ ms: 61_000 });
    await until('the alert e-mail', async () => (await mailsToOwner()).length > 0, 30_000).catch(async (err) => {
      console.log(
        '[screens-health] incidents',
        JSON.stringify(await api.json('GET', `/api/screens/${screenId}/incidents`)),
      );
      console.log(
        '[screens-health] health',
        JSON.stringify(await api.json('GET', `/api/screens/health?q=${encodeURIComponent(NAME)}`)),
      );
      throw err;
    });
    const mails = await mailsToOwner();
    expect(mails).toHaveLength(1);
    expect(linksIn(mails[0] as Mail)).toContain(`/screens/health?screen=${screenId}`);
    // the incident is in the screen's log
    const incidents = await api.json<Array<{ state: string; endedAt: string | null; alertedAt: string | null }>>(
      'GET',
      `/api/screens/${screenId}/incidents`,
    );
    expect(incidents[0]).toMatchObject({ state: 'offline', endedAt: null });
    expect(incidents[0]?.alertedAt).not.toBeNull();
  }, 90_000);

  it('its network back, it recovers on the page, and a recovery e-mail follows', async () => {
    await display.context.unroute('**/*');
    networkCut = false;
    await until('back on the page', async () => (await shownState()) === 'ok', 90_000);
    // the sweep ends the incident; the recovery is told after its grouping window, a minute of clock later,
    // moved in steps shorter than a missed heartbeat (each after a fresh one) so the screen stays online
    await moveClock({ ms: 1000 });
    for (let step = 0; step < 3; step++) {
      const before = await lastSeen();
      await until('a fresh heartbeat', async () => (await lastSeen()) !== before, 30_000);
      await moveClock({ ms: 21_000 });
    }
    await until('the recovery e-mail', async () => (await mailsToOwner()).length > 1, 30_000);
    const mails = await mailsToOwner();
    expect(mails).toHaveLength(2);
    expect(mails.every((m) => linksIn(m).includes(`/screens/health?screen=${screenId}`))).toBe(true);
    const incidents = await api.json<Array<{ endedAt: string | null; recoveryAlertedAt: string | null }>>(
      'GET',
      `/api/screens/${screenId}/incidents`,
    );
    expect(incidents).toHaveLength(1);
    expect(incidents[0]?.endedAt).not.toBeNull();
    expect(incidents[0]?.recoveryAlertedAt).not.toBeNull();
    // the owner's incident log on the page says so
    await owner.page.goto(`/screens/health?screen=${screenId}`);
    const row = owner.page.getByTestId(`health-row-${screenId}`);
    await row.getByTestId('incident').first().waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('incident').first().getAttribute('data-state')).toBe('offline');
  }, 150_000);
});

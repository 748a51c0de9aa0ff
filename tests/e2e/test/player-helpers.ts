// What the player scenarios need: a signed-in member's API calls (upload real PDFs, durations, playlists) and a
// Chromium whose context carries the same session cookie.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createVerifiedMember, type Member } from './account';
import { baseUrl, corpusDir } from './browser';

export const corpus = (name: string) => path.join(corpusDir, 'pdf', name);

export interface Api {
  member: Member;
  cookie: string;
  call(method: string, url: string, body?: unknown): Promise<Response>;
  json<T>(method: string, url: string, body?: unknown): Promise<T>;
}

/** A verified member, logged in through the API (the session cookie is kept for calls and browsers). */
export async function signedInMember(options: { locale?: string } = {}): Promise<Api> {
  const member = await createVerifiedMember(options);
  const res = await fetch(`${baseUrl()}/api/auth/local-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('pc_session='));
  if (!setCookie) throw new Error('login: no pc_session cookie');
  return apiFor(member, setCookie.split(';')[0] as string);
}

/** API calls with a session cookie (`pc_session=…`), e.g. one a browser signed in with. */
export function apiFor(member: Member, cookie: string): Api {
  const call = async (method: string, url: string, body?: unknown) => {
    const isForm = body instanceof FormData;
    return fetch(`${baseUrl()}${url}`, {
      method,
      headers: {
        cookie,
        ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  };
  const json = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const r = await call(method, url, body);
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${text}`);
    return JSON.parse(text) as T;
  };
  return { member, cookie, call, json };
}

export interface UploadedFile {
  id: string;
  title: string;
  pageCount: number;
  status: string;
}

/** POST /api/files/upload (multipart, field `pdf`), then waits until the file has left `processing`. */
export async function uploadPdf(api: Api, file: string, title: string, displayDuration = 1): Promise<UploadedFile> {
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(corpus(file))], { type: 'application/pdf' }), file);
  form.append('title', title);
  form.append('displayDuration', String(displayDuration));
  const created = await api.json<UploadedFile>('POST', '/api/files/upload', form);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const now = await api.json<UploadedFile>('GET', `/api/files/${created.id}?signage_mode=true`);
    if (now.status !== 'processing') {
      if (now.status === 'disabled') throw new Error(`conversion of ${file} failed`);
      return now;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${file} still processing after 90 s`);
}

export async function setDuration(api: Api, fileId: string, seconds: number) {
  await api.json('PUT', `/api/files/${fileId}/duration`, { displayDuration: seconds });
}

export async function createPlaylist(api: Api, name: string, fileIds: string[]): Promise<string> {
  const { id } = await api.json<{ id: string }>('POST', '/api/playlists', { name });
  if (fileIds.length) await api.json('PUT', `/api/playlists/${id}/items`, { fileIds });
  return id;
}

export interface PlayerBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Chromium with the member's session; `serviceWorkers: 'block'` lets page.route see every request. */
export async function openPlayerBrowser(
  api: Api | null,
  options: { serviceWorkers?: 'allow' | 'block'; locale?: string; touch?: boolean } = {},
): Promise<PlayerBrowser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'pagecast-player-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    locale: options.locale ?? 'ja-JP',
    // a phone-sized touch screen (taps, no mouse), else a desktop window
    ...(options.touch
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }
      : { viewport: { width: 1280, height: 800 } }),
    baseURL: baseUrl(),
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  if (api) {
    const [name, value] = api.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: baseUrl() }]);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  trackSockets(page);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The player's state as its root element shows it. */
export async function playerState(page: Page) {
  return page.getByTestId('remote-mf_player').evaluate((el) => {
    const front = el.querySelector<HTMLImageElement>('img[data-front="true"]');
    return {
      fileId: el.getAttribute('data-file-id') ?? '',
      pageIndex: Number(el.getAttribute('data-page-index')),
      playing: el.getAttribute('data-playing') === 'true',
      live: el.getAttribute('data-live') ?? '',
      mode: el.getAttribute('data-mode') ?? '',
      playlistFiles: el.getAttribute('data-playlist-files') ?? '',
      appliedAt: Number(el.getAttribute('data-applied-at') || 0),
      imageShown: Boolean(front?.complete && front.naturalWidth > 0),
      frontSrc: front?.getAttribute('src') ?? '',
    };
  });
}

/**
 * Records, inside the page, every change of (file, page) with its time, and counts animation frames in which no
 * decoded image was on screen after the first one appeared (a blank frame between pages).
 */
export async function recordPlayback(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as {
      __pc: { steps: { fileId: string; page: number; at: number }[]; blankFrames: number; frames: number };
    };
    w.__pc = { steps: [], blankFrames: 0, frames: 0 };
    let last = '';
    let seenImage = false;
    const tick = () => {
      const root = document.querySelector('[data-player="signage"]');
      if (root) {
        const key = `${root.getAttribute('data-file-id')}#${root.getAttribute('data-page-index')}`;
        if (key !== last) {
          last = key;
          w.__pc.steps.push({
            fileId: root.getAttribute('data-file-id') ?? '',
            page: Number(root.getAttribute('data-page-index')),
            at: Date.now(),
          });
        }
        const front = root.querySelector<HTMLImageElement>('img[data-front="true"]');
        const visible = Boolean(front?.complete && front.naturalWidth > 0);
        const fallback = root.querySelector('[data-testid="player-image-fallback"]');
        if (visible) seenImage = true;
        if (seenImage) {
          w.__pc.frames += 1;
          if (!visible && !fallback) w.__pc.blankFrames += 1;
        }
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export async function recorded(page: Page) {
  return page.evaluate(
    () =>
      (
        window as unknown as {
          __pc: { steps: { fileId: string; page: number; at: number }[]; blankFrames: number; frames: number };
        }
      ).__pc,
  );
}

/** Waits until the recorded steps satisfy `done` (polling inside Node, the page keeps recording). */
export async function waitForSteps(
  page: Page,
  done: (steps: { fileId: string; page: number; at: number }[]) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await recorded(page);
    if (done(r.steps)) return r;
    if (Date.now() > deadline) throw new Error(`steps not reached: ${JSON.stringify(r.steps.slice(-12))}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Polls `check` every `everyMs` until it holds; past `timeoutMs` it fails saying what was not reached. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in time: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The pairing code a display on /screen shows, once it shows one. */
export async function pairingCode(page: Page): Promise<string> {
  const codeEl = page.getByTestId('pairing-code');
  let code = '';
  await until('a pairing code', async () => {
    code = (await codeEl.textContent()) ?? '';
    return /^[A-Z2-9]{6}$/.test(code);
  });
  return code;
}

/** Opens /screen on the display's page and pairs it to the member through the API; the new screen's id. */
export async function pairDisplay(api: Api, page: Page, screen: { name: string; timeZone: string }): Promise<string> {
  await page.goto('/screen');
  const code = await pairingCode(page);
  return (await api.json<{ id: string }>('POST', '/api/screens', { code, ...screen })).id;
}

/** The WebSockets each page has open (deviceCalls listens to those opened before it too). */
const openSockets = new WeakMap<Page, Set<import('playwright-core').WebSocket>>();
function trackSockets(page: Page) {
  const open = new Set<import('playwright-core').WebSocket>();
  openSockets.set(page, open);
  page.on('websocket', (ws) => {
    open.add(ws);
    ws.on('close', () => open.delete(ws));
  });
}

/** A device call the display made, over its socket or over HTTP, with the status it was answered. */
export interface DeviceCall {
  via: 'socket' | 'http';
  type: 'heartbeat' | 'plays';
  body: unknown;
  status: number;
}

/**
 * Every heartbeat and play batch the display sends from now on, whichever way (docs/device-socket.md: over its
 * socket while it is live, else POST), each told to `onCall` once answered; and the socket's frames and closes.
 */
export function deviceCalls(page: Page, onCall: (call: DeviceCall) => void = () => undefined) {
  const calls: DeviceCall[] = [];
  const socket = {
    sent: [] as Array<Record<string, unknown>>,
    received: [] as Array<Record<string, unknown>>,
    closed: 0,
  };
  const told = (call: DeviceCall) => {
    calls.push(call);
    onCall(call);
  };
  const parse = (payload: string | Buffer) => {
    try {
      return JSON.parse(String(payload)) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const detach: Array<() => void> = [];
  const onSocket = (ws: import('playwright-core').WebSocket) => {
    if (!ws.url().endsWith('/api/screens/device/socket')) return;
    const asked = new Map<number, { type: 'heartbeat' | 'plays'; body: unknown }>();
    const sent = ({ payload }: { payload: string | Buffer }) => {
      const frame = parse(payload);
      socket.sent.push(frame);
      if ((frame.type === 'heartbeat' || frame.type === 'plays') && typeof frame.ref === 'number')
        asked.set(frame.ref, { type: frame.type, body: frame.body });
    };
    const received = ({ payload }: { payload: string | Buffer }) => {
      const frame = parse(payload);
      socket.received.push(frame);
      const call = frame.type === 'reply' && typeof frame.ref === 'number' ? asked.get(frame.ref) : undefined;
      if (call) told({ via: 'socket', ...call, status: Number(frame.status) });
    };
    const closed = () => {
      socket.closed += 1;
    };
    ws.on('framesent', sent);
    ws.on('framereceived', received);
    ws.on('close', closed);
    detach.push(() => {
      ws.off('framesent', sent);
      ws.off('framereceived', received);
      ws.off('close', closed);
    });
  };
  for (const ws of openSockets.get(page) ?? []) onSocket(ws);
  const onResponse = (res: import('playwright-core').Response) => {
    const url = res.url();
    const type = url.endsWith('/api/screens/device/heartbeat')
      ? 'heartbeat'
      : url.endsWith('/api/screens/device/plays')
        ? 'plays'
        : undefined;
    if (type) told({ via: 'http', type, body: res.request().postDataJSON(), status: res.status() });
  };
  page.on('websocket', onSocket);
  page.on('response', onResponse);
  return {
    calls,
    socket,
    stop() {
      page.off('websocket', onSocket);
      page.off('response', onResponse);
      for (const off of detach) off();
    },
  };
}

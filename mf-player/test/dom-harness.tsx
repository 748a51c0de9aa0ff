// The pages' test harness in jsdom: the real i18n catalogues, query client and router; only the network is an
// in-test server (fetch), whose answers each test gives through `net.serve` and whose calls it reads in `net.calls`.
// `setupDom()` registers the hooks (call it once at the top of a test file).
import { Screen, type WorkspaceRole } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { MemoryRouter, Route, Routes, useLocation } from '@pagecast/router';
import { createQueryClient } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const net: {
  calls: Call[];
  /** this test's answers (reset before each test); undefined falls back to `fallback`, then to the defaults */
  serve: (call: Call) => Response | undefined;
  /** a test file's own defaults (kept across its tests) */
  fallback: (call: Call) => Response | undefined;
} = { calls: [], serve: () => undefined, fallback: () => undefined };

let i18n: Awaited<ReturnType<typeof initI18n>>;
let root: Root;
let host: HTMLDivElement;

export function setupDom(): { i18n: () => typeof i18n } {
  beforeAll(async () => {
    i18n = await initI18n({ lng: 'en' });
  });
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    net.calls = [];
    net.serve = () => undefined;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://app.test');
      const call = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        search: url.searchParams,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: new Headers(init?.headers),
      };
      net.calls.push(call);
      const answer = net.serve(call) ?? net.fallback(call);
      if (answer) return answer;
      if (url.pathname === '/api/auth/user') return json({ id: 'me', email: 'me@example.test' });
      if (url.pathname === '/api/files/accessible' || url.pathname === '/api/playlists') return json([]);
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
  });
  return { i18n: () => i18n };
}

let location = '';
function Where() {
  const here = useLocation();
  location = `${here.pathname}${here.search}`;
  return null;
}
/** where the page's router is now (path and query) */
export const where = () => location;

export async function settle(times = 8) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

export async function render(node: ReactNode, url = '/') {
  await act(async () => {
    root.render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="*" element={node} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  await settle();
}

export const byTestId = (id: string, within: ParentNode = document) =>
  within.querySelector<HTMLElement>(`[data-testid="${id}"]`);
export const allByTestId = (id: string, within: ParentNode = document) => [
  ...within.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];
export async function click(el: Element | null | undefined) {
  expect(el).toBeTruthy();
  await act(async () => (el as HTMLElement).click());
  await settle();
}
export const button = (text: string, within: ParentNode = document) =>
  [...within.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);

/** types into a controlled input as a person does (React listens to the native value setter's input event) */
export async function type(el: HTMLInputElement | null, value: string) {
  expect(el).toBeTruthy();
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  await act(async () => {
    setter?.call(el, value);
    el?.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle();
}

/** picks an option of a select as a person does */
export async function choose(el: HTMLSelectElement | null, value: string) {
  expect(el).toBeTruthy();
  const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set;
  await act(async () => {
    setter?.call(el, value);
    el?.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle();
}

// Fixtures the pages' tests share.

/** The `/api/workspaces` answer of a person acting in another's workspace, 'shop', as `role` (their own is 'me'). */
export const workspacesActingAs = (role: WorkspaceRole, names = { own: 'Me', shop: 'Shop' }) =>
  json({
    workspaces: [
      { id: 'me', name: names.own, ownerId: 'me', role: 'owner', approvalRequired: false },
      { id: 'shop', name: names.shop, ownerId: 'shop', role, approvalRequired: false },
    ],
  });

/** A screen paired and online at `at`, playing nothing. */
export const pairedScreen = (id: string, name: string, at = '2026-11-27T10:00:00.000Z'): Screen =>
  Screen.parse({
    id,
    name,
    timeZone: 'Asia/Tokyo',
    assignment: { kind: 'none' },
    online: true,
    lastSeenAt: at,
    nowPlaying: null,
    screenSize: null,
    appVersion: null,
    pairedAt: at,
    rotation: 0,
    openingHours: null,
  });

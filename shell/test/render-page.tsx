// A shell page in jsdom as the app renders it (the real i18n catalogues, query client, router and toasts), with the
// network replaced by an in-test server: what the page tests share.
import { MemoryRouter, useLocation } from '@pagecast/router';
import { createQueryClient, Toaster } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A request the page made: its method, path and JSON body. */
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** A request as sent: the call with its search part and headers (names in lower case). */
export interface Sent extends Call {
  search: string;
  headers: Record<string, string>;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Lets React and the queries run until the page has settled (a few turns of the event loop). */
export async function settle(times = 6) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

/** The first element with this `data-testid`. */
export const byTestId = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`);

/** The text of the element with this `data-testid`, '' when there is none. */
export const text = (id: string) => byTestId(id)?.textContent ?? '';

/** Clicks an element that must be on the page, then lets the page settle. */
export async function click(el: HTMLElement | null) {
  expect(el).not.toBeNull();
  await act(async () => el?.click());
  await settle();
}

/** The router's address (path and search) as `data-testid="address"`: where a page sent the member. */
export function Where() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

/**
 * For each test: `serve` answers every fetch (each recorded in `calls`, emptied before the test), and a root in the
 * document to render into, removed after it. Call it once at a test file's top level.
 */
export function pageHost(serve: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const sent: Sent[] = [];
  let root: Root;
  let host: HTMLDivElement;
  let tab = 0;
  beforeEach(() => {
    calls.length = 0;
    sent.length = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://app.test');
      const call = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      sent.push({ ...call, search: url.search, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
      return serve(call);
    });
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });
  return {
    calls,
    sent,
    /**
     * Renders `page` at `url` with the app's providers and waits for it to settle. `newTab`: as a page opened in
     * another tab (a new router at `url`, nothing kept in memory; the test clears sessionStorage if it matters).
     */
    async render(page: ReactNode, url: string, options: { newTab?: boolean } = {}) {
      if (options.newTab) tab++;
      await act(async () => {
        root.render(
          <QueryClientProvider client={createQueryClient()}>
            <MemoryRouter key={tab} initialEntries={[url]}>
              {page}
              <Toaster />
            </MemoryRouter>
          </QueryClientProvider>,
        );
      });
      await settle();
    },
  };
}

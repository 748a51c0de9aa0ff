// File management's page in jsdom as the app renders it (the real query client and router, the catalogues the test
// file loads), with the network replaced by an in-test server: what the page tests share.
import { MemoryRouter, Route, Routes } from '@pagecast/router';
import { createQueryClient } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, vi } from 'vitest';
import { FilesPage } from '../src/features/library/components/files-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Lets React and the queries run until the page has settled (a few turns of the event loop). */
export async function settle(times = 8) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

/**
 * For each test: `serve` answers every fetch (by path), and a root in the document to render into, removed after
 * it. Call it once at a test file's top level.
 */
export function filesPageHost(serve: (path: string, init?: RequestInit) => Response | Promise<Response>) {
  let root: Root;
  let host: HTMLDivElement;
  beforeEach(() => {
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) =>
      serve(new URL(input, 'http://app.test').pathname, init),
    );
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
    vi.unstubAllGlobals();
  });
  return {
    /** Renders File management at `url` (other paths render nothing), `beside` in the same router; then settles. */
    async render(url: string, beside?: ReactNode) {
      await act(async () => {
        root.render(
          <QueryClientProvider client={createQueryClient()}>
            <MemoryRouter initialEntries={[url]}>
              <Routes>
                <Route path="/files" element={<FilesPage />} />
                <Route path="*" element={null} />
              </Routes>
              {beside}
            </MemoryRouter>
          </QueryClientProvider>,
        );
      });
      await settle();
    },
    /** Unmounts the page and starts a new root: the next render starts afresh, nothing kept in memory. */
    remount() {
      act(() => root.unmount());
      root = createRoot(host);
    },
  };
}

// @vitest-environment jsdom
// The upload dialog in jsdom with the real i18n catalogues and query client; only the network is replaced by an
// in-test server (fetch and XMLHttpRequest, which the upload uses for its progress). Its close button and its status
// follow the conversion (it said "conversion continues" after the conversion had finished).
import type { FileSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { MemoryRouter } from '@pagecast/router';
import { createQueryClient } from '@pagecast/ui';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadDialog } from '../src/features/library/components/upload-dialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let server: { file: FileSummary | null; uploads: number; reads: number };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function summary(over: Partial<FileSummary>): FileSummary {
  return {
    id: 'f1',
    userId: 'u1',
    title: 'deck',
    filename: 'deck.pdf',
    kind: 'pdf',
    pageCount: 0,
    pagesReady: 0,
    displayDuration: 30,
    displayMode: 'fit-width',
    tags: [],
    isPublished: false,
    publishPrice: null,
    status: 'processing',
    statusReason: null,
    thumbnailUrl: null,
    createdAt: '2026-11-27T00:00:00.000Z',
    updatedAt: '2026-11-27T00:00:00.000Z',
    ...over,
  };
}

/** The upload's side of the in-test server: POST /api/files/upload answers the new file, still converting. */
class TestXhr {
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  withCredentials = false;
  responseType = '';
  status = 0;
  statusText = '';
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private url = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  abort() {
    this.onabort?.();
  }
  send(_body: FormData) {
    expect(this.url).toBe('/api/files/upload');
    server.uploads++;
    server.file = summary({ pageCount: 3 });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
      this.status = 201;
      this.statusText = 'Created';
      this.responseText = JSON.stringify(server.file);
      this.onload?.();
    }, 0);
  }
}

beforeAll(async () => {
  await initI18n({ lng: 'en' });
});

let root: Root;
let host: HTMLDivElement;
let queryClient: QueryClient;
let closed: number;
beforeEach(() => {
  server = { file: null, uploads: 0, reads: 0 };
  closed = 0;
  vi.stubGlobal('XMLHttpRequest', TestXhr);
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app.test');
    if (url.pathname === '/api/files/f1' && server.file) {
      server.reads++;
      return json(server.file);
    }
    if (url.pathname === '/api/files' || url.pathname === '/api/dashboard/stats') return json([]);
    return json({ code: 'NOT_FOUND', message: 'no' }, 404);
  });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  queryClient = createQueryClient();
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

async function settle(times = 6) {
  for (let i = 0; i < times; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <UploadDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) closed++;
        setOpen(next);
      }}
    />
  );
}

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`);

/** Picks a PDF, sends it, and waits for the dialog to follow its conversion. */
async function uploadDeck() {
  await act(async () => {
    root.render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/files']}>
          <Harness />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  await settle();
  const input = byTestId<HTMLInputElement>('upload-input');
  const pdf = new File(['%PDF-1.7 test'], 'deck.pdf', { type: 'application/pdf' });
  await act(async () => {
    Object.defineProperty(input, 'files', { value: [pdf], configurable: true });
    input?.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await act(async () => byTestId('upload-submit')?.click());
  await settle();
  expect(server.uploads).toBe(1);
}

/** The server's file changes: the dialog reads it again (as the live stream or its polling makes it). */
async function serverNow(over: Partial<FileSummary>) {
  server.file = summary({ pageCount: 3, ...over });
  await act(async () => {
    await queryClient.invalidateQueries({ queryKey: ['/api/files', 'f1'] });
  });
  await settle();
}

/** Lets the page's own timers run (inside act) until `done` holds. */
async function waitUntil(done: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await act(async () => new Promise((r) => setTimeout(r, 50)));
  }
}

const dialogText = () => byTestId('upload-dialog')?.closest('[role="dialog"]')?.textContent ?? '';

describe('upload dialog, before sending', () => {
  it('asks seconds per page for a document, not for a video (it plays for its length)', async () => {
    await act(async () => {
      root.render(
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={['/files']}>
            <Harness />
          </MemoryRouter>
        </QueryClientProvider>,
      );
    });
    await settle();
    const input = byTestId<HTMLInputElement>('upload-input');
    const pick = async (file: File) =>
      act(async () => {
        Object.defineProperty(input, 'files', { value: [file], configurable: true });
        input?.dispatchEvent(new Event('change', { bubbles: true }));
      });
    const durationField = () => document.querySelector('input[id$="-duration"]');
    await pick(new File(['%PDF-1.7 test'], 'deck.pdf', { type: 'application/pdf' }));
    expect(durationField()).not.toBeNull();
    expect(dialogText()).toContain('Display time (seconds per page)');
    await pick(new File(['....ftypisom'], 'clip.mp4', { type: 'video/mp4' }));
    expect(durationField()).toBeNull();
    expect(dialogText()).not.toContain('seconds per page');
    expect(byTestId('upload-video-duration')?.textContent).toBe(
      'A video plays for its length: there is no display time to set.',
    );
  });
});

describe('upload dialog, after the bytes are sent', () => {
  it('says the conversion continues while it does, then "Close" and the page count once it is done', async () => {
    await uploadDeck();
    expect(byTestId('upload-dialog')?.dataset.conversion).toBe('converting');
    expect(byTestId('upload-close')?.textContent).toBe('Close (conversion continues)');

    await serverNow({ status: 'processing', pagesReady: 1 });
    expect(byTestId('upload-close')?.textContent).toBe('Close (conversion continues)');
    expect(dialogText()).toContain('Converting pages... 1 / 3');

    await serverNow({ status: 'private', pagesReady: 3 });
    expect(byTestId('upload-dialog')?.dataset.conversion).toBe('done');
    expect(byTestId('upload-close')?.textContent).toBe('Close');
    expect(dialogText()).toContain('Conversion finished (3 pages)');
    expect(dialogText()).not.toContain('conversion continues');

    // a converted file: the dialog closes by itself shortly after
    await waitUntil(() => closed === 1);
    expect(byTestId('upload-dialog')).toBeNull();
  });

  it('a failed conversion says so, what to do, and offers another upload instead of "conversion continues"', async () => {
    await uploadDeck();
    await serverNow({ status: 'disabled', pagesReady: 0, statusReason: 'CONVERSION_FAILED' });
    expect(byTestId('upload-dialog')?.dataset.conversion).toBe('failed');
    expect(dialogText()).toContain('The file could not be converted');
    expect(dialogText()).toContain('Check that the file opens on your computer (or save it as PDF)');
    expect(byTestId('upload-close')?.textContent).toBe('Close');
    expect(dialogText()).not.toContain('conversion continues');
    // the dialog stays until the member chooses
    expect(closed).toBe(0);

    await act(async () => byTestId('upload-another')?.click());
    await settle();
    expect(byTestId('upload-dialog')?.dataset.conversion).toBeUndefined();
    expect(byTestId('upload-submit')).not.toBeNull();
    expect(byTestId('upload-selected')).toBeNull();
  });
});

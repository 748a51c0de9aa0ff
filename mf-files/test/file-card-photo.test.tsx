// @vitest-environment jsdom
// A photo's card in File management: its badge (photo and format) and its dimensions in place of the page count,
// in each language; a document's card keeps its page count and shows no such badge.
import type { FileSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileCard } from '../src/features/library/components/file-card';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base: FileSummary = {
  id: 'f1',
  userId: 'me',
  title: 'Menu',
  filename: 'IMG_0001.HEIC',
  kind: 'image',
  media: { format: 'heic', width: 4032, height: 3024 },
  pageCount: 1,
  pagesReady: 1,
  displayDuration: 8,
  displayMode: 'fit-width',
  tags: [],
  isPublished: false,
  publishPrice: null,
  status: 'private',
  statusReason: null,
  thumbnailUrl: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

let i18n: Awaited<ReturnType<typeof initI18n>>;
beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

let root: Root | undefined;
let host: HTMLDivElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
});

async function render(file: FileSummary, lng: string) {
  await i18n.changeLanguage(lng);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root?.render(
      <QueryClientProvider client={createQueryClient()}>
        <FileCard file={file} editing={new Set()} onEdit={() => {}} onDelete={() => {}} onPublishSettings={() => {}} />
      </QueryClientProvider>,
    );
  });
  const text = (id: string) => host?.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
  return { text, host: host as HTMLDivElement };
}

describe('a photo on its card', () => {
  it.each([
    ['ja', '写真 · HEIC', '4,032 × 3,024 ピクセル', 'サイズ', '写真'],
    ['en', 'Photo · HEIC', '4,032 × 3,024 px', 'Dimensions', 'Photo'],
    ['fr', 'Photo · HEIC', '4\u202f032 × 3\u202f024 px', 'Dimensions', 'Photo'],
    // Italian groups thousands from five digits on (CLDR's minimum grouping)
    ['it', 'Foto · HEIC', '4032 × 3024 px', 'Dimensioni', 'Foto'],
  ])('in %s: badge %s, dimensions %s', async (lng, badge, dimensions, label, thumbWord) => {
    const { text, host } = await render(base, lng);
    expect(text('file-kind')).toBe(badge);
    expect(text('file-dimensions')).toBe(dimensions);
    expect(host.querySelector('.pf-props')?.textContent).toContain(label);
    expect(text('file-pages')).toBeNull();
    expect(text('file-duration')).toBe(lng === 'ja' ? '8 秒' : '8 s');
    // no thumbnail yet: the word for a photo, not "IMAGE"
    expect(host.querySelector('.pf-card__kind')?.textContent).toBe(thumbWord);
  });

  it('a document keeps its page count and has no kind badge', async () => {
    const { text, host } = await render({ ...base, kind: 'pdf', media: null, pageCount: 3, pagesReady: 3 }, 'en');
    expect(text('file-kind')).toBeNull();
    expect(text('file-dimensions')).toBeNull();
    expect(text('file-pages')).toBe('3 p.');
    expect(text('file-duration')).toBe('8 s / page');
    expect(host.querySelector('.pf-card__kind')?.textContent).toBe('PDF');
  });
});

// @vitest-environment jsdom
// A video's card in File management: its badge (video and codec), dimensions, length, file size, and whether it
// plays as uploaded or was converted to H.264 and why, in each language; its transcode's progress while it runs.
import type { FileSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient } from '@pagecast/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileCard } from '../src/features/library/components/file-card';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const media = {
  format: 'avi' as const,
  width: 1920,
  height: 1080,
  durationMs: 95_400,
  videoCodec: 'h264',
  audioCodec: 'aac',
  processing: 'transcoded' as const,
  transcodeReasons: ['container' as const, 'variable-frame-rate' as const],
};
const base: FileSummary = {
  id: 'f1',
  userId: 'me',
  title: 'Lobby loop',
  filename: 'lobby.avi',
  kind: 'video',
  media,
  sizeBytes: 12_897_485,
  videoUrl: '/media/video/f1',
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

describe('a video on its card', () => {
  it.each([
    [
      'ja',
      '動画 · H.264',
      '1,920 × 1,080 ピクセル',
      '1:35',
      '12.3 MB',
      'H.264 に変換（ブラウザで再生しにくい形式、可変フレームレート）',
      '動画',
    ],
    [
      'en',
      'Video · H.264',
      '1,920 × 1,080 px',
      '1:35',
      '12.3 MB',
      'Converted to H.264 (a container browsers play poorly and variable frame rate)',
      'Video',
    ],
    [
      'fr',
      'Vidéo · H.264',
      '1\u202f920 × 1\u202f080 px',
      '1:35',
      '12,3\u00a0Mo',
      'Convertie en H.264 (un conteneur mal lu par les navigateurs et fréquence d’images variable)',
      'Vidéo',
    ],
    [
      'it',
      'Video · H.264',
      '1920 × 1080 px',
      '1:35',
      '12,3 MB',
      'Convertito in H.264 (un contenitore poco adatto ai browser e frequenza dei fotogrammi variabile)',
      'Video',
    ],
  ])(
    'in %s: badge %s, dimensions %s, length %s, size %s',
    async (lng, badge, dimensions, length, size, why, thumbWord) => {
      const { text, host } = await render(base, lng);
      expect(text('file-kind')).toBe(badge);
      expect(text('file-dimensions')).toBe(dimensions);
      expect(text('file-length')).toBe(length);
      expect(text('file-size')).toBe(size);
      expect(text('file-processing')).toBe(why);
      expect(text('file-pages')).toBeNull();
      // a video plays for its length: no "seconds per page" display time
      expect(text('file-duration')).toBeNull();
      expect(host.querySelector('.pf-card__kind')?.textContent).toBe(thumbWord);
    },
  );

  it('a kept video says it plays as uploaded; a long one shows hours', async () => {
    const kept = {
      ...base,
      media: {
        ...media,
        format: 'webm' as const,
        videoCodec: 'vp9',
        processing: 'kept' as const,
        transcodeReasons: [],
        durationMs: 3_725_000,
      },
    };
    const { text } = await render(kept, 'en');
    expect(text('file-kind')).toBe('Video · VP9');
    expect(text('file-processing')).toBe('Played as uploaded (not re-encoded)');
    expect(text('file-length')).toBe('1:02:05');
  });

  it('while it is transcoded, the bar shows the percent ffmpeg reached', async () => {
    const converting = {
      ...base,
      status: 'processing' as const,
      pageCount: 0,
      pagesReady: 0,
      transcodePercent: 42,
      media: { ...media, processing: undefined, transcodeReasons: undefined, videoCodec: 'mpeg4' },
    };
    const { text, host } = await render(converting, 'en');
    expect(text('file-kind')).toBe('Video · MPEG-4');
    expect(host.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('42');
    expect(text('file-converting')).toContain('Converting the video to H.264');
    expect(text('file-processing')).toBeNull();
  });
});

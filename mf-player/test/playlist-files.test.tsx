// @vitest-environment jsdom
// The playlist editor's file chooser and the files tab: a video reads as a video (its length), not as "1 page".
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { AccessibleFilesTab } from '../src/features/playlists/components/accessible-files-tab';
import { PlaylistEditor } from '../src/features/playlists/components/playlist-editor';
import { allByTestId, json, net, render, settle, setupDom } from './dom-harness';

const dom = setupDom();

const files = [
  {
    id: 'f-deck',
    title: 'Deck',
    kind: 'pdf',
    pageCount: 3,
    displayDuration: 10,
    access: 'owner',
    licenceExpiresAt: null,
  },
  {
    id: 'f-clip',
    title: 'Clip B',
    kind: 'video',
    pageCount: 1,
    displayDuration: 30,
    media: { format: 'mp4', width: 1920, height: 1080, durationMs: 95_400 },
    access: 'owner',
    licenceExpiresAt: null,
  },
];
const playlist = {
  id: 'pl1',
  userId: 'me',
  name: 'Lunch',
  description: null,
  itemCount: 0,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
};

const serve = () => {
  net.serve = ({ path }) => {
    if (path === '/api/files/accessible') return json(files);
    if (path === '/api/playlists/pl1/items') return json([]);
    return undefined;
  };
};

describe('a video in the playlist file lists', () => {
  it('the editor’s chooser shows a video’s length, a document its pages, in each language', async () => {
    serve();
    await render(<PlaylistEditor playlist={playlist} onClose={() => {}} />);
    await settle(12);
    const options = () => allByTestId('playlist-file-option').map((o) => o.textContent);
    expect(options()).toEqual(['Deck3 pages', 'Clip BVideo · 1:35']);
    const words: Record<string, string> = { ja: 'Clip B動画 1:35', fr: 'Clip BVidéo · 1:35', it: 'Clip BVideo · 1:35' };
    for (const [lng, text] of Object.entries(words)) {
      await act(async () => {
        await dom.i18n().changeLanguage(lng);
      });
      expect(options()[1]).toBe(text);
    }
  });

  it('the files tab shows a video’s length and no seconds per page', async () => {
    serve();
    await render(<AccessibleFilesTab />);
    await settle(12);
    const cards = allByTestId('accessible-file').map((c) => c.textContent ?? '');
    expect(cards[0]).toContain('3 pages · 10 s per page');
    expect(cards[1]).toContain('Video · 1:35');
    expect(cards[1]).not.toContain('page');
  });
});

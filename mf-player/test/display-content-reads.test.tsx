// @vitest-environment jsdom
// What a display reads after a change of what it plays: the slides and the offline keeper's round (a display with
// its service worker) both need the playlist and each file's pages, and each path goes to the server once per
// change. The network is the pages' in-test server (dom-harness); the worker is a stand-in that says it is registered.
import type { DeviceScreen } from '@pagecast/contracts';
import { act, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createWaitingBoard } from '../src/features/display/model/retry';
import { useDisplayPlayer } from '../src/features/display/model/use-display-player';
import { byTestId, net, render, settle, setupDom } from './dom-harness';

const kept: string[][] = [];
vi.mock('../src/sw/register', () => ({
  registerPlayerServiceWorker: async () => ({}),
  keepForOffline: async (items: { url: string }[]) => {
    kept.push(items.map((i) => i.url));
  },
}));

setupDom();

const screen = {
  screenId: 's1',
  name: 'Lobby',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'playlist', playlistId: 'pl1' },
  heartbeatSeconds: 15,
  groups: [],
  takeovers: [],
} as unknown as DeviceScreen;

const page = (fileId: string, n: number) => ({
  id: `${fileId}-${n}`,
  fileId,
  pageNumber: n,
  imagePath: `/media/${fileId}-${n}.webp`,
  thumbPath: `/media/${fileId}-${n}-t.webp`,
  displayDuration: 5,
});
const item = (fileId: string, position: number) => ({
  id: `pl1-${fileId}`,
  playlistId: 'pl1',
  fileId,
  position,
  createdAt: '2026-12-07T00:00:00.000Z',
  file: { id: fileId },
});

let files: string[];
let bump: () => void;
const board = createWaitingBoard();

function Player() {
  const [version, setVersion] = useState(0);
  bump = () => setVersion((v) => v + 1);
  const { slide } = useDisplayPlayer(screen, { version, active: true, onPlayed: () => undefined, board });
  return <div data-testid="slide">{slide?.imagePath ?? ''}</div>;
}

beforeEach(() => {
  files = ['doc'];
  kept.length = 0;
  net.serve = ({ path }) =>
    new Response(
      JSON.stringify(
        path.startsWith('/api/playlists/') ? files.map(item) : [page(decodeURIComponent(path.split('/')[3] ?? ''), 1)],
      ),
      { status: 200, headers: { 'content-type': 'application/json', etag: `W/"${files.join(',')}"` } },
    );
});

const settleAll = () => settle(20);
const count = (path: string) => net.calls.filter((c) => c.path === path).length;
const shown = () => byTestId('slide')?.textContent;

describe('the content a display reads after a change', () => {
  it('reads its playlist and each file’s pages once per change, for its slides and its offline copy alike', async () => {
    await render(<Player />);
    await settleAll();
    // at boot: one read of each, and both the slides and the keeper have them
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(1);
    expect(shown()).toBe('/media/doc-1.webp');
    expect(kept.flat()).toContain('/media/doc-1.webp');

    // the playlist is edited (a file added): the change is read once, and both have the new file
    files = ['doc', 'added'];
    net.calls = [];
    kept.length = 0;
    act(() => bump());
    await settleAll();
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(1);
    expect(count('/api/files/added/pages')).toBe(1);
    expect(kept.flat()).toEqual(expect.arrayContaining(['/media/doc-1.webp', '/media/added-1.webp']));

    // a later change reads afresh (nothing of the last change answers for it)
    files = ['added'];
    net.calls = [];
    act(() => bump());
    await settleAll();
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/added/pages')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(0);
  });
});

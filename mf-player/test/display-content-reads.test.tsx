// @vitest-environment jsdom
// What a display reads after a change of what it plays: the slides and the offline keeper's round (a display with
// its service worker) both need the playlist and each file's pages, and each path goes to the server once per
// change. The network is an in-test fetch; the worker is a stand-in that says it is registered.
import type { DeviceScreen } from '@pagecast/contracts';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWaitingBoard } from '../src/features/display/model/retry';
import { useDisplayPlayer } from '../src/features/display/model/use-display-player';

const kept: string[][] = [];
vi.mock('../src/sw/register', () => ({
  registerPlayerServiceWorker: async () => ({}),
  keepForOffline: async (items: { url: string }[]) => {
    kept.push(items.map((i) => i.url));
  },
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

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
let reads: string[];
let root: Root;
let host: HTMLDivElement;
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
  reads = [];
  kept.length = 0;
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app.test');
    reads.push(url.pathname);
    const body = url.pathname.startsWith('/api/playlists/')
      ? files.map(item)
      : [page(decodeURIComponent(url.pathname.split('/')[3] ?? ''), 1)];
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: `W/"${files.join(',')}"` },
    });
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

const settle = async () => {
  for (let i = 0; i < 20; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
};
const count = (path: string) => reads.filter((p) => p === path).length;

describe('the content a display reads after a change', () => {
  it('reads its playlist and each file’s pages once per change, for its slides and its offline copy alike', async () => {
    await act(async () => root.render(<Player />));
    await settle();
    // at boot: one read of each, and both the slides and the keeper have them
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(1);
    expect(host.textContent).toBe('/media/doc-1.webp');
    expect(kept.flat()).toContain('/media/doc-1.webp');

    // the playlist is edited (a file added): the change is read once, and both have the new file
    files = ['doc', 'added'];
    reads = [];
    kept.length = 0;
    act(() => bump());
    await settle();
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(1);
    expect(count('/api/files/added/pages')).toBe(1);
    expect(kept.flat()).toEqual(expect.arrayContaining(['/media/doc-1.webp', '/media/added-1.webp']));

    // a later change reads afresh (nothing of the last change answers for it)
    files = ['added'];
    reads = [];
    act(() => bump());
    await settle();
    expect(count('/api/playlists/pl1/items')).toBe(1);
    expect(count('/api/files/added/pages')).toBe(1);
    expect(count('/api/files/doc/pages')).toBe(0);
  });
});

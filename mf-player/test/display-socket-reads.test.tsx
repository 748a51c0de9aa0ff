// @vitest-environment jsdom
// A paired display reads its playlist and its files' pages over its socket while it is live (content-reads.ts,
// get-content.ts): no HTTP read of them; the ETag it holds goes with each read and a 304 answers with what it holds;
// an error reply is the HTTP read's error (a 404 is "gone" to the offline keeper); a socket that cannot open (or drops
// mid-read) leaves the reads to HTTP; one ETag store serves both paths. One in-test server answers both: the socket's
// frames (a scripted WebSocket) and the pages' fetch (dom-harness), with the same bodies and ETags. The service worker
// is a stand-in that says it is registered and records what it is asked to keep.
import type { DeviceScreen, DeviceSocketUp } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { act, useCallback, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDisplayPages, getDisplayPlaylist } from '../src/features/display/api/get-content';
import { displayReads } from '../src/features/display/model/content-reads';
import type { ReadReply } from '../src/features/display/model/device-link';
import { createWaitingBoard } from '../src/features/display/model/retry';
import { useDeviceLink } from '../src/features/display/model/use-display-links';
import { useDisplayPlayer } from '../src/features/display/model/use-display-player';
import { forgetEtags } from '../src/lib/conditional-fetch';
import { byTestId, json, net, render, settle, setupDom } from './dom-harness';
import { FakeSocket } from './fake-socket';

const worker = vi.hoisted(() => ({
  kept: [] as { urls: string[]; replace: boolean }[],
  given: [] as { path: string; text: string; etag: string }[],
  dropped: [] as string[],
}));
vi.mock('../src/sw/register', () => ({
  registerPlayerServiceWorker: async () => ({}),
  keepForOffline: async (items: { url: string }[], replace: boolean) => {
    worker.kept.push({ urls: items.map((i) => i.url), replace });
  },
  keepGivenRead: async (path: string, text: string, etag: string) => {
    worker.given.push({ path, text, etag });
  },
  dropGivenRead: async (path: string) => {
    worker.dropped.push(path);
  },
}));

setupDom();

type ReadFrame = Extract<DeviceSocketUp, { type: 'playlist' | 'pages' }>;
const isRead = (f: Record<string, unknown>): f is ReadFrame => f.type === 'playlist' || f.type === 'pages';

/**
 * The page's WebSocket: the gateway's side answers each content read (after a tick, as a network would) with the
 * server's answer, unless `hold` says to leave it unanswered.
 */
class PageSocket extends FakeSocket {
  static all: PageSocket[] = [];
  constructor(readonly url: string) {
    super();
    PageSocket.all.push(this);
  }
  override send(text: string) {
    super.send(text);
    const frame = this.sent.at(-1) as Record<string, unknown>;
    if (!isRead(frame) || hold(frame)) return;
    setTimeout(() => FakeSocket.prototype.down.call(this, { type: 'reply', ref: frame.ref, ...socketAnswer(frame) }));
  }
  override down(frame: unknown) {
    act(() => super.down(frame));
  }
  override drop(code = 1006) {
    act(() => super.drop(code));
  }
  reads = () => this.sent.filter(isRead);
}

// The server: each playlist's files, the files whose pages are gone; each answer's ETag is its body's.
let playlists: Record<string, string[]>;
let goneFiles: Set<string>;
let hold: (frame: ReadFrame) => boolean;
const page = (fileId: string) => ({
  id: `${fileId}-1`,
  fileId,
  pageNumber: 1,
  imagePath: `/media/${fileId}-1.webp`,
  thumbPath: `/media/${fileId}-1-t.webp`,
  displayDuration: 5,
});
const item = (playlistId: string) => (fileId: string, position: number) => ({
  id: `${playlistId}-${fileId}`,
  playlistId,
  fileId,
  position,
  createdAt: '2026-12-07T00:00:00.000Z',
  file: { id: fileId },
});
const NOT_FOUND = { code: 'NOT_FOUND', message: 'no such file' };
/** a body's ETag: changes with it */
const hash = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(36);
/** the server's answer to a read of `path` (its status, body, ETag), whichever way it came */
function serverAnswer(path: string): { status: number; body: unknown; etag?: string } | undefined {
  const pl = /^\/api\/playlists\/([^/]+)\/items$/.exec(path)?.[1];
  const file = /^\/api\/files\/([^/]+)\/pages$/.exec(path)?.[1];
  let body: unknown;
  if (pl !== undefined) {
    const id = decodeURIComponent(pl);
    if (!playlists[id]) return { status: 404, body: NOT_FOUND };
    body = playlists[id].map(item(id));
  } else if (file !== undefined) {
    const id = decodeURIComponent(file);
    if (goneFiles.has(id)) return { status: 404, body: NOT_FOUND };
    body = [page(id)];
  } else return undefined;
  return { status: 200, body, etag: `W/"${hash(JSON.stringify(body))}"` };
}
const pathOf = (f: ReadFrame) =>
  f.type === 'playlist' ? `/api/playlists/${f.body.id}/items` : `/api/files/${f.body.id}/pages`;
function socketAnswer(f: ReadFrame): ReadReply {
  const a = serverAnswer(pathOf(f));
  if (!a) return { status: 404, body: NOT_FOUND };
  if (a.status === 200 && f.body.etag === a.etag) return { status: 304, etag: a.etag, body: null };
  return a;
}

/** A display playing playlist `playlistId`: its socket (useDeviceLink) and its player, given the link. */
const board = createWaitingBoard();
function Display({ playlistId }: { playlistId: string }) {
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const link = useDeviceLink({
    refresh: async () => undefined,
    given: () => false,
    reload,
    unpaired: () => undefined,
    board,
  });
  const screen = {
    screenId: 's1',
    name: 'Lobby',
    timeZone: 'Asia/Tokyo',
    assignment: { kind: 'playlist', playlistId },
    heartbeatSeconds: 15,
    groups: [],
    takeovers: [],
  } as unknown as DeviceScreen;
  const [fixed] = useState(screen);
  const { watched } = useDisplayPlayer(fixed, {
    version,
    active: true,
    onPlayed: () => undefined,
    board,
    link,
  });
  return <div data-testid="slides">{watched.slides.map((s) => s.imagePath).join(' ')}</div>;
}

let n = 0;
/** ids of this test's own (the slides keep the last good answer of each id for the whole file) */
let PL: string;
let DOC: string;
beforeEach(() => {
  n += 1;
  PL = `pl${n}`;
  DOC = `doc${n}`;
  forgetEtags();
  PageSocket.all = [];
  vi.stubGlobal('WebSocket', PageSocket);
  playlists = { [PL]: [DOC] };
  goneFiles = new Set();
  hold = () => false;
  worker.kept.length = 0;
  worker.given.length = 0;
  worker.dropped.length = 0;
  net.serve = (call) => {
    const a = serverAnswer(call.path);
    if (!a) return undefined;
    if (a.status !== 200) return json(a.body, a.status);
    if (call.headers.get('If-None-Match') === a.etag) return new Response(null, { status: 304 });
    return new Response(JSON.stringify(a.body), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: a.etag ?? '' },
    });
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

const settleAll = () => settle(20);
const lastSocket = () => PageSocket.all.at(-1) as PageSocket;
const contentCalls = () => net.calls.filter((c) => c.path.startsWith('/api/playlists/') || c.path.includes('/pages'));
const shown = () => byTestId('slides')?.textContent;
/** the keeper named all of the screen's content (a round none of whose reads failed but for "gone") */
const keptWhole = () => worker.kept.filter((k) => k.replace).map((k) => k.urls);
async function live(ws = lastSocket()) {
  ws.accept();
  ws.down({ type: 'manifest', version: 'W/"m1"' });
  await settleAll();
}
/** a change to its playlist heard on the socket: the content is read again */
async function edited(ws = lastSocket()) {
  ws.down({ type: 'event', event: { id: 'e1', type: 'files.playlist.saved.v1', data: { playlistId: PL } } });
  await settleAll();
}

describe("a display's content reads over its socket", () => {
  it('reads its playlist and pages over the live socket, once per change, and makes no HTTP read of them', async () => {
    await render(<Display playlistId={PL} />);
    const ws = lastSocket();
    // opening: the reads wait for it
    expect(ws.reads()).toEqual([]);
    await live(ws);
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    // nothing held yet: no etag; the slides and the keeper's round share one read of each
    expect(ws.reads()).toEqual([
      { type: 'playlist', ref: expect.any(Number), body: { id: PL } },
      { type: 'pages', ref: expect.any(Number), body: { id: DOC } },
    ]);
    expect(contentCalls()).toEqual([]);
    expect(keptWhole()).toEqual([[`/media/${DOC}-1.webp`]]);
    // each answer kept for a reload during a network cut, under the URL the HTTP read would have
    const playlistAnswer = serverAnswer(`/api/playlists/${PL}/items`);
    expect(worker.given).toEqual([
      {
        path: `/api/playlists/${PL}/items`,
        text: JSON.stringify(playlistAnswer?.body),
        etag: playlistAnswer?.etag,
      },
      {
        path: `/api/files/${DOC}/pages?signage_mode=true`,
        text: JSON.stringify([page(DOC)]),
        etag: serverAnswer(`/api/files/${DOC}/pages`)?.etag,
      },
    ]);

    // an edit adds a file: read again over the socket, the new file shown
    playlists[PL] = [DOC, 'added'];
    await edited(ws);
    expect(shown()).toBe(`/media/${DOC}-1.webp /media/added-1.webp`);
    expect(contentCalls()).toEqual([]);
  });

  it('sends the ETag it holds, and on a 304 keeps what it held (and its offline round stays whole)', async () => {
    await render(<Display playlistId={PL} />);
    const ws = lastSocket();
    await live(ws);
    const before = ws.reads().length;
    worker.kept.length = 0;
    worker.given.length = 0;
    // a change to something else of the playlist's: the reads of it answer 304
    await edited(ws);
    const again = ws.reads().slice(before);
    expect(again).toEqual([
      {
        type: 'playlist',
        ref: expect.any(Number),
        body: { id: PL, etag: serverAnswer(`/api/playlists/${PL}/items`)?.etag },
      },
      {
        type: 'pages',
        ref: expect.any(Number),
        body: { id: DOC, etag: serverAnswer(`/api/files/${DOC}/pages`)?.etag },
      },
    ]);
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    // the 304 answered with the data held: the keeper's round read everything (a failed read would make it partial)
    expect(keptWhole()).toEqual([[`/media/${DOC}-1.webp`]]);
    // nothing new to keep
    expect(worker.given).toEqual([]);
    expect(contentCalls()).toEqual([]);
  });

  it('takes a 404 reply as the HTTP 404: the file is gone to the keeper, its kept answer dropped, no HTTP retry', async () => {
    playlists[PL] = [DOC, 'deleted'];
    goneFiles.add('deleted');
    await render(<Display playlistId={PL} />);
    await live();
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    // gone is not a failure: the round names the whole content (what is left)
    expect(keptWhole()).toEqual([[`/media/${DOC}-1.webp`]]);
    expect(worker.dropped).toContain('/api/files/deleted/pages?signage_mode=true');
    expect(new Set(worker.dropped).size).toBe(1);
    expect(contentCalls()).toEqual([]);
  });

  it('throws the same HttpError for an error reply as the HTTP read does', async () => {
    goneFiles.add('deleted');
    const overHttp = await getDisplayPages('deleted').catch((e: unknown) => e);
    const link = {
      state: 'live' as const,
      settled: async () => undefined,
      read: async (type: 'playlist' | 'pages', body: { id: string }) =>
        socketAnswer({ type, ref: 1, body } as ReadFrame),
    };
    const overSocket = await displayReads(link)
      .pages('deleted')
      .catch((e: unknown) => e);
    expect(overHttp).toBeInstanceOf(HttpError);
    expect(overSocket).toBeInstanceOf(HttpError);
    const fields = (e: unknown) => {
      const { status, code, serverMessage, body, message } = e as HttpError;
      return { status, code, serverMessage, body, message };
    };
    expect(fields(overSocket)).toEqual(fields(overHttp));
    expect(fields(overSocket)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reads over HTTP when the socket cannot open (fallen back), at once', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await render(<Display playlistId={PL} />);
    // a proxy that refuses WebSockets: closed before its first manifest, twice
    lastSocket().drop();
    await act(async () => {
      await vi.waitFor(() => expect(PageSocket.all).toHaveLength(2), { timeout: 2000 });
    });
    expect(contentCalls()).toEqual([]);
    lastSocket().drop();
    // fallen back: the reads go now, not after the wait for a socket still opening
    await settleAll();
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    expect(contentCalls().map((c) => c.path)).toEqual([`/api/playlists/${PL}/items`, `/api/files/${DOC}/pages`]);
    expect(PageSocket.all.flatMap((s) => s.reads())).toEqual([]);
  });

  it('reads over HTTP where there is no WebSocket', async () => {
    vi.stubGlobal('WebSocket', undefined);
    await render(<Display playlistId={PL} />);
    await settleAll();
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    expect(contentCalls().map((c) => c.path)).toEqual([`/api/playlists/${PL}/items`, `/api/files/${DOC}/pages`]);
  });

  it('reads over HTTP at once a read whose socket dropped before its reply', async () => {
    await render(<Display playlistId={PL} />);
    const ws = lastSocket();
    hold = (f) => f.type === 'playlist';
    await live(ws);
    expect(ws.reads().map((f) => f.type)).toEqual(['playlist']);
    expect(shown()).toBe('');
    ws.drop();
    await settle();
    // the playlist over HTTP without waiting for the socket to come back (its pages wait for it a moment)
    expect(contentCalls().map((c) => c.path)).toEqual([`/api/playlists/${PL}/items`]);
    hold = () => false;
    await act(async () => {
      await vi.waitFor(() => expect(PageSocket.all).toHaveLength(2), { timeout: 2000 });
    });
    await live(lastSocket());
    expect(shown()).toBe(`/media/${DOC}-1.webp`);
    // the pages over the new socket: only the dropped read went over HTTP
    expect(contentCalls()).toHaveLength(1);
    expect(
      lastSocket()
        .reads()
        .some((f) => f.type === 'pages'),
    ).toBe(true);
  });

  it('shares one ETag store with the HTTP reads, both ways', async () => {
    // read over HTTP first (a display fallen back, or before its socket): its ETag goes with the socket's read
    await getDisplayPlaylist(PL);
    const httpEtag = serverAnswer(`/api/playlists/${PL}/items`)?.etag;
    expect(net.calls[0]?.headers.get('If-None-Match')).toBeNull();
    await render(<Display playlistId={PL} />);
    const ws = lastSocket();
    await live(ws);
    expect(ws.reads()[0]).toEqual({ type: 'playlist', ref: expect.any(Number), body: { id: PL, etag: httpEtag } });
    // answered 304: the slides play what the HTTP read got (they held nothing else of this playlist)
    expect(shown()).toBe(`/media/${DOC}-1.webp`);

    // and the other way: the ETag of the pages read over the socket goes with the next HTTP read, answered 304
    net.calls = [];
    const pages = await getDisplayPages(DOC);
    expect(net.calls[0]?.headers.get('If-None-Match')).toBe(serverAnswer(`/api/files/${DOC}/pages`)?.etag);
    expect(pages).toEqual([page(DOC)]);
  });
});

// The display's socket (device-link.ts) against a scripted WebSocket on fake timers: calls over a live socket answer
// as the HTTP path would (its status and error body), a socket that cannot open falls back to HTTP by itself and is
// tried again later, a dropped socket fails its unanswered calls (the sender sends them again) and resumes, a pushed
// version other than the one held reads the manifest again, a revocation unpairs.
import { HttpError } from '@pagecast/ui';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createDeviceLink,
  type DeviceLinkDeps,
  FALLBACK_AFTER,
  LinkOffline,
  SETTLE_MS,
  SOCKET_RETRY_MS,
  viaLink,
} from '../src/features/display/model/device-link';
import { FakeSocket } from './fake-socket';

let sockets: FakeSocket[];
let held: string | null;
let seen: { manifests: string[]; events: string[]; resumed: number; revoked: number };

function link(over: Partial<DeviceLinkDeps> = {}) {
  const l = createDeviceLink({
    socket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    url: 'ws://app.test/api/screens/device/socket',
    heldVersion: () => held,
    onManifest: (v) => seen.manifests.push(v),
    onEvent: (e) => seen.events.push(e.type),
    onResumed: () => {
      seen.resumed += 1;
    },
    onRevoked: () => {
      seen.revoked += 1;
    },
    random: () => 1,
    ...over,
  });
  l.start();
  return l;
}
const last = () => sockets.at(-1) as FakeSocket;
const live = (version = 'W/"v1"') => {
  last().accept();
  last().down({ type: 'manifest', version });
};

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-12-06T09:00:00.000Z') });
  sockets = [];
  held = 'W/"v1"';
  seen = { manifests: [], events: [], resumed: 0, revoked: 0 };
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the display's socket", () => {
  it('says hello with the version it holds, and goes live on the answer without reading an unchanged manifest', () => {
    const l = link();
    expect(l.state).toBe('connecting');
    last().accept();
    expect(last().sent[0]).toEqual({ type: 'hello', version: 'W/"v1"' });
    last().down({ type: 'manifest', version: 'W/"v1"' });
    expect(l.state).toBe('live');
    expect(seen.manifests).toEqual([]);
    // a change pushed later: read again
    last().down({ type: 'manifest', version: 'W/"v2"' });
    expect(seen.manifests).toEqual(['W/"v2"']);
  });

  it('sends calls over the live socket, matched by ref; an error reply is the HTTP path’s error', async () => {
    const l = link();
    live();
    const http = vi.fn(async () => undefined);
    const beat = viaLink(l, 'heartbeat', http);
    const ok = beat({ appVersion: '1', screenSize: { width: 1, height: 1 }, nowPlaying: null });
    await vi.advanceTimersByTimeAsync(0);
    const refused = beat({ appVersion: '2', screenSize: { width: 1, height: 1 }, nowPlaying: null });
    await vi.advanceTimersByTimeAsync(0);
    const [, first, second] = last().sent as Array<{ type: string; ref: number; body: { appVersion: string } }>;
    expect(first).toMatchObject({ type: 'heartbeat', body: { appVersion: '1' } });
    // answered out of order: each reply finds its call
    last().down({
      type: 'reply',
      ref: second?.ref,
      status: 403,
      body: { code: 'REPORTED_CONTENT_NOT_ALLOWED', message: 'x' },
    });
    last().down({ type: 'reply', ref: first?.ref, status: 200, body: { ok: true } });
    await expect(ok).resolves.toEqual({ ok: true });
    const err = await refused.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 403, code: 'REPORTED_CONTENT_NOT_ALLOWED' });
    expect(http).not.toHaveBeenCalled();
  });

  it('reads content over the live socket: the whole reply whatever its status, LinkOffline when not live or dropped', async () => {
    const l = link();
    // not live yet: failed at once, nothing sent
    await expect(l.read('playlist', { id: 'pl-1' })).rejects.toBeInstanceOf(LinkOffline);
    live();
    const fresh = l.read('playlist', { id: 'pl-1' });
    const same = l.read('pages', { id: 'f-1', etag: 'W/"p1"' });
    const gone = l.read('pages', { id: 'f-2' });
    const [, a, b, c] = last().sent as Array<{ type: string; ref: number; body: unknown }>;
    expect(a).toMatchObject({ type: 'playlist', body: { id: 'pl-1' } });
    expect(b).toMatchObject({ type: 'pages', body: { id: 'f-1', etag: 'W/"p1"' } });
    last().down({ type: 'reply', ref: b?.ref, status: 304, etag: 'W/"p1"', body: null });
    last().down({ type: 'reply', ref: a?.ref, status: 200, etag: 'W/"l1"', body: [{ id: 'i1' }] });
    last().down({ type: 'reply', ref: c?.ref, status: 404, body: { code: 'NOT_FOUND', message: 'no' } });
    // a 304 and a 404 are answers, not failures (call would throw on both)
    await expect(same).resolves.toEqual({ status: 304, etag: 'W/"p1"', body: null });
    await expect(fresh).resolves.toEqual({ status: 200, etag: 'W/"l1"', body: [{ id: 'i1' }] });
    await expect(gone).resolves.toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const dropped = l.read('playlist', { id: 'pl-1' });
    last().drop(1006);
    await expect(dropped).rejects.toBeInstanceOf(LinkOffline);
  });

  it('falls back to HTTP after closing before its manifest twice, and tries the socket again later', async () => {
    const l = link();
    const http = vi.fn(async () => ({ accepted: 1 }));
    const plays = viaLink(l, 'plays', http);
    const sending = plays({ plays: [] as never });
    for (let i = 0; i < FALLBACK_AFTER; i++) {
      last().drop(1006); // blocked on the way: never opens
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(l.state).toBe('http');
    await expect(sending).resolves.toEqual({ accepted: 1 });
    expect(http).toHaveBeenCalledTimes(1);
    const opened = sockets.length;
    await vi.advanceTimersByTimeAsync(SOCKET_RETRY_MS - 5000);
    expect(sockets.length).toBe(opened);
    await vi.advanceTimersByTimeAsync(SOCKET_RETRY_MS);
    expect(sockets.length).toBe(opened + 1);
    live();
    expect(l.state).toBe('live');
  });

  it('waits a moment for a socket still opening before a call goes over HTTP', async () => {
    const l = link();
    const http = vi.fn(async () => undefined);
    const beat = viaLink(
      l,
      'heartbeat',
      http,
    )({ appVersion: '1', screenSize: { width: 1, height: 1 }, nowPlaying: null });
    await vi.advanceTimersByTimeAsync(SETTLE_MS - 100);
    expect(http).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    await beat;
    expect(http).toHaveBeenCalledTimes(1);
    expect(l.state).toBe('connecting');
  });

  it('fails an unanswered call when the socket drops, opens again, re-sends its watch and reads what changed', async () => {
    const l = link();
    live();
    l.watch(['pl-1'], ['f-1']);
    expect(last().sent.at(-1)).toEqual({ type: 'watch', playlists: ['pl-1'], files: ['f-1'] });
    const batch = viaLink(l, 'plays', async () => 'http')({ plays: [] as never });
    await vi.advanceTimersByTimeAsync(0);
    last().drop(1006);
    await expect(batch).rejects.toBeInstanceOf(LinkOffline);
    expect(l.state).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1000);
    live();
    expect(l.state).toBe('live');
    expect(last().sent).toEqual([
      { type: 'hello', version: 'W/"v1"' },
      { type: 'watch', playlists: ['pl-1'], files: ['f-1'] },
    ]);
    expect(seen.resumed).toBe(1);
    last().down({ type: 'event', event: { id: 'e1', type: 'files.playlist.saved.v1', data: { playlistId: 'pl-1' } } });
    expect(seen.events).toEqual(['files.playlist.saved.v1']);
  });

  it('unpairs at a revocation (4401) and opens no socket again', async () => {
    const l = link();
    live();
    last().drop(4401);
    expect(seen.revoked).toBe(1);
    await vi.advanceTimersByTimeAsync(SOCKET_RETRY_MS * 2);
    expect(sockets).toHaveLength(1);
    expect(l.state).toBe('http');
  });

  it('uses HTTP from the start where there is no WebSocket', async () => {
    const l = link({ socket: null });
    expect(l.state).toBe('http');
    const http = vi.fn(async () => undefined);
    await viaLink(l, 'heartbeat', http)({ appVersion: '1', screenSize: { width: 1, height: 1 }, nowPlaying: null });
    expect(http).toHaveBeenCalledTimes(1);
  });
});

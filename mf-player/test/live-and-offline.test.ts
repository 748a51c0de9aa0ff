import { HttpError } from '@pagecast/ui';
import { describe, expect, it, vi } from 'vitest';
import { atomicSaveMissing } from '../src/features/playlists/api/save-playlist-items';
import { eventsUrl, staleFor } from '../src/features/signage/model/live-events';
import { type EventSourceLike, openLiveStream } from '../src/features/signage/model/use-live-updates';
import { serviceWorkerUrl } from '../src/sw/register';
import { appCacheKey, appFilesToKeep, strategyFor } from '../src/sw/strategy';

describe('live events', () => {
  it('say which reads are stale', () => {
    expect(staleFor('files.playlist.saved.v1', { id: 'e', type: 'x', data: { playlistId: 'p' } })).toEqual({
      kind: 'playlist',
      playlistId: 'p',
    });
    expect(staleFor('files.playlist.deleted.v1', { data: { playlistId: 'p' } })).toEqual({
      kind: 'playlist',
      playlistId: 'p',
    });
    for (const name of [
      'files.file.updated.v1',
      'files.file.deleted.v1',
      'files.page.ready.v1',
      'marketplace.licence.expired.v1',
    ]) {
      expect(staleFor(name, { data: { fileId: 'f' } })).toEqual({ kind: 'file', fileId: 'f' });
    }
    expect(staleFor('resync', null)).toEqual({ kind: 'all' });
    expect(staleFor('files.file.updated.v1', { data: {} })).toBeNull();
    expect(staleFor('ready', {})).toBeNull();
  });
  it('watch the playlist and its files, de-duplicated, in a stable order, within the 50-id limit', () => {
    expect(eventsUrl('p', ['b', 'a', 'b'])).toBe('/api/events?playlist=p&file=a&file=b');
    expect(eventsUrl(null, ['x'])).toBe('/api/events?file=x');
    const many = Array.from({ length: 80 }, (_, i) => `f${i}`);
    expect(new URLSearchParams(eventsUrl('p', many).split('?')[1]).getAll('file')).toHaveLength(49);
  });
});

/** An EventSource the test drives: open, error (optionally CLOSED) and named events. */
class FakeSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  onopen: EventSourceLike['onopen'] = null;
  onerror: EventSourceLike['onerror'] = null;
  private listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(name: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.call(this, new Event('open'));
  }
  fail(closed: boolean) {
    this.readyState = closed ? 2 : 0;
    this.onerror?.call(this, new Event('error'));
  }
  emit(name: string, data: unknown) {
    for (const l of this.listeners.get(name) ?? []) l({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
}

describe('live stream', () => {
  const start = (opts: { resyncOnFirstOpen?: boolean } = {}) => {
    const sources: FakeSource[] = [];
    const states: string[] = [];
    const stale: unknown[] = [];
    const close = openLiveStream(
      '/api/events?playlist=p',
      { ...opts, onState: (s) => states.push(s), onStale: (s) => stale.push(s) },
      (u) => {
        const s = new FakeSource(u);
        sources.push(s);
        return s;
      },
    );
    return { sources, states, stale, close };
  };
  const alls = (stale: unknown[]) => stale.filter((s) => (s as { kind: string }).kind === 'all').length;

  it('a first open refetches nothing (the gateway says when to), an open after a failure refetches everything', () => {
    const { sources, states, stale } = start();
    sources[0]?.open();
    expect(states).toEqual(['open']);
    expect(stale).toEqual([]);
    // the gateway's word: what it watches changed just before it opened
    sources[0]?.emit('resync', { reason: 'changed-before-open' });
    expect(stale).toEqual([{ kind: 'all' }]);
    sources[0]?.emit('files.playlist.saved.v1', { data: { playlistId: 'p' } });
    expect(stale.at(-1)).toEqual({ kind: 'playlist', playlistId: 'p' });
    // the browser reconnects by itself (CONNECTING); the next open catches up on what was missed meanwhile
    sources[0]?.fail(false);
    expect(states.at(-1)).toBe('down');
    sources[0]?.open();
    expect(alls(stale)).toBe(2);
    expect(sources).toHaveLength(1);
  });

  it('a stream that replaces one that was down refetches everything at its first open', () => {
    // The player opens another stream when the ids it plays change; the one before was missing events.
    const { sources, stale } = start({ resyncOnFirstOpen: true });
    sources[0]?.open();
    expect(stale).toEqual([{ kind: 'all' }]);
  });

  it('reopens a stream the server closed, later each time, and stays quiet once closed by its owner', () => {
    vi.useFakeTimers();
    try {
      const { sources, stale, close } = start();
      sources[0]?.fail(true);
      expect(sources[0]?.closed).toBe(true);
      vi.advanceTimersByTime(1999);
      expect(sources).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(sources).toHaveLength(2);
      sources[1]?.fail(true);
      vi.advanceTimersByTime(2000);
      expect(sources).toHaveLength(2); // 4 s the second time
      vi.advanceTimersByTime(2000);
      expect(sources).toHaveLength(3);
      sources[2]?.open();
      expect(stale).toEqual([{ kind: 'all' }]);
      close();
      expect(sources[2]?.closed).toBe(true);
      sources[2]?.emit('files.playlist.saved.v1', { data: { playlistId: 'p' } });
      sources[2]?.fail(true);
      vi.advanceTimersByTime(60_000);
      expect(sources).toHaveLength(3);
      expect(stale).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('service worker', () => {
  const origin = 'http://localhost:8080';
  const req = (path: string, over: { method?: string; mode?: string; destination?: string } = {}) => ({
    method: 'GET',
    url: `${origin}${path}`,
    ...over,
  });
  it('serves page images from the cache first and what is played from the network first', () => {
    expect(strategyFor(req('/media/abc.webp'), origin)).toBe('media-cache-first');
    expect(strategyFor(req('/api/files/f1?signage_mode=true'), origin)).toBe('data-network-first');
    expect(strategyFor(req('/api/files/f1/pages?signage_mode=true'), origin)).toBe('data-network-first');
    expect(strategyFor(req('/api/playlists/p1/items'), origin)).toBe('data-network-first');
  });
  it('leaves the event stream, writes, other calls and other origins alone', () => {
    expect(strategyFor(req('/api/events?file=f1'), origin)).toBe('pass');
    expect(strategyFor(req('/api/files/accessible'), origin)).toBe('pass');
    expect(strategyFor(req('/api/files/f1'), origin)).toBe('pass');
    expect(strategyFor(req('/api/playlists/p1/items', { method: 'PUT' }), origin)).toBe('pass');
    expect(strategyFor(req('/api/auth/user'), origin)).toBe('pass');
    expect(strategyFor({ method: 'GET', url: 'https://elsewhere.example/media/a.webp' }, origin)).toBe('pass');
  });
  it('keeps the player page and the app code for a reload during a network cut', () => {
    expect(strategyFor(req('/signage/f1?playlist=p', { mode: 'navigate' }), origin)).toBe('app-network-first');
    expect(strategyFor(req('/files', { mode: 'navigate' }), origin)).toBe('pass');
    expect(strategyFor(req('/remotes.json'), origin)).toBe('app-network-first');
    expect(strategyFor(req('/remotes/player/remoteEntry.js', { destination: 'script' }), origin)).toBe(
      'app-network-first',
    );
    expect(strategyFor(req('/main.0123456789.js', { destination: 'script' }), origin)).toBe('app-network-first');
    expect(appCacheKey({ url: `${origin}/signage/f2?index=1`, mode: 'navigate' })).toBe(`${origin}/signage/`);
  });
  it('keeps the code the page loaded (same origin only), not calls or images', () => {
    expect(
      appFilesToKeep(
        [
          `${origin}/main.0123456789.js`,
          `${origin}/remotes/player/mf-manifest.json`,
          `${origin}/remotes/player/mf-manifest.lean.json`,
          `${origin}/remotes/player/mf-manifest.lean-stats.json`,
          `${origin}/remotes/player/195.b7bc19cdb1.css`,
          `${origin}/remotes.json`,
          `${origin}/api/files/f1?signage_mode=true`,
          `${origin}/media/a.webp`,
          'https://js.stripe.com/v3/x.js',
          `${origin}/main.0123456789.js`,
        ],
        origin,
      ),
    ).toEqual([
      `${origin}/main.0123456789.js`,
      `${origin}/remotes/player/mf-manifest.json`,
      `${origin}/remotes/player/mf-manifest.lean.json`,
      `${origin}/remotes/player/195.b7bc19cdb1.css`,
      `${origin}/remotes.json`,
    ]);
  });
  it('is registered next to the remote, only on the page origin', () => {
    expect(serviceWorkerUrl('/remotes/player/', 'http://localhost:8080/signage/f1')).toBe(
      'http://localhost:8080/remotes/player/sw.js',
    );
    expect(serviceWorkerUrl('http://cdn.example/player/', 'http://localhost:8080/signage/f1')).toBeNull();
    expect(serviceWorkerUrl(undefined, 'http://localhost:8080/signage/f1')).toBeNull();
  });
});

describe('playlist save', () => {
  it('falls back to delete-then-add only when the atomic call does not exist', () => {
    expect(atomicSaveMissing(new HttpError(405, 'Method Not Allowed', ''))).toBe(true);
    expect(atomicSaveMissing(new HttpError(404, 'Not Found', '{"code":"NOT_FOUND","message":"x"}'))).toBe(true);
    expect(atomicSaveMissing(new HttpError(404, 'Not Found', '{"code":"PLAYLIST_NOT_FOUND","message":"x"}'))).toBe(
      false,
    );
    expect(atomicSaveMissing(new HttpError(409, 'Conflict', '{"code":"PLAYLIST_ITEM_EXISTS"}'))).toBe(false);
  });
});

// An open page notices a removal or a changed role by itself: the frame keeps a live stream naming the workspace it
// acts in (in jsdom, a fake EventSource the test ends as the gateway would), and when the stream ends asks the
// person's workspaces once. The watch's retries, in fake time: growing, jittered, never a tight loop.
import type { WorkspaceList, WorkspaceSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { Route, Routes, useLocation } from '@pagecast/router';
import { currentWorkspace, removeToast, setCurrentWorkspace, useWorkspaceRole } from '@pagecast/ui';
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppFrame } from '../src/app/app-frame';
import {
  BACKOFF_MAX_MS,
  backoffMs,
  type StreamLike,
  watchWorkspace,
  workspaceStreamUrl,
} from '../src/features/workspace/model/workspace-watch';
import { json, pageHost, settle } from './render-page';

const own: WorkspaceSummary = { id: 'u1', name: '佐藤 花子', ownerId: 'u1', role: 'owner', approvalRequired: false };
const shop: WorkspaceSummary = { id: 'w2', name: '渋谷店', ownerId: 'w2', role: 'editor', approvalRequired: false };

/** A stream as the browser's EventSource: the test ends it (as the gateway does) with `fail()`. */
class FakeStream implements StreamLike {
  static all: FakeStream[] = [];
  onerror: ((ev: Event) => unknown) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeStream.all.push(this);
  }
  close() {
    this.closed = true;
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
  static open() {
    return FakeStream.all.filter((s) => !s.closed);
  }
}

describe('the frame’s watch of the workspace it acts in', () => {
  let workspaces: WorkspaceSummary[];
  let i18n: Awaited<ReturnType<typeof initI18n>>;
  beforeAll(async () => {
    i18n = await initI18n({ lng: 'ja' });
  });

  const { sent, render } = pageHost((call) => {
    if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'hanako@example.test', points: 10 });
    if (call.path === '/api/workspaces') return json({ workspaces });
    if (call.path === '/api/points/summary') return json({ balance: 10 });
    return json([]);
  });

  /** The page: where it is and the role it acts with. */
  function Probe() {
    const location = useLocation();
    const role = useWorkspaceRole();
    return <output data-testid="probe">{`${location.pathname}${location.search} ${role ?? '-'}`}</output>;
  }
  const app = (
    <Routes>
      <Route element={<AppFrame />}>
        <Route path="*" element={<Probe />} />
      </Route>
    </Routes>
  );
  const probe = () => document.querySelector('[data-testid="probe"]')?.textContent;
  const listReads = () => sent.filter((s) => s.path === '/api/workspaces');

  beforeEach(async () => {
    workspaces = [own, shop];
    FakeStream.all = [];
    vi.stubGlobal('EventSource', FakeStream);
    setCurrentWorkspace(undefined);
    act(() => removeToast());
    await i18n.changeLanguage('ja');
  });

  it('keeps no stream in the person’s own workspace', async () => {
    await render(app, '/files');
    expect(probe()).toBe('/files owner');
    expect(FakeStream.all).toEqual([]);
  });

  it('a removal: the stream ends, one read of the list, and the page is back in its own workspace saying why', async () => {
    await render(app, '/files?w=w2');
    expect(probe()).toBe('/files?w=w2 editor');
    expect(FakeStream.open().map((s) => s.url)).toEqual(['/api/events?workspace=w2']);
    const readsBefore = listReads().length;

    // the owner removes the person: the gateway ends the stream; no call of the page's own is refused
    workspaces = [own];
    await act(async () => FakeStream.open()[0]?.fail());
    await settle();
    expect(listReads().length).toBe(readsBefore + 2); // the watch's read, then the frame's read again of the list
    expect(listReads()[readsBefore]?.headers['x-pagecast-workspace']).toBe('w2');
    expect(currentWorkspace()).toBeUndefined();
    expect(probe()).toBe('/files owner');
    const toast = document.querySelector('[data-testid="toast"]');
    expect(toast?.querySelector('.pc-toast__title')?.textContent).toBe('ご自身のワークスペースに戻りました');
    // nothing is watched in one's own workspace
    expect(FakeStream.open()).toEqual([]);
  });

  it('a changed role: the stream ends, the page follows the new role and watches again', async () => {
    await render(app, '/screens?w=w2');
    expect(probe()).toBe('/screens?w=w2 editor');
    workspaces = [own, { ...shop, role: 'viewer' }];
    await act(async () => FakeStream.open()[0]?.fail());
    await settle();
    expect(probe()).toBe('/screens?w=w2 viewer');
    expect(currentWorkspace()).toBe('w2');
    expect(document.querySelector('[data-testid="toast"]')).toBeNull();
    expect(FakeStream.open().map((s) => s.url)).toEqual(['/api/events?workspace=w2']);
    expect(FakeStream.all.length).toBe(2);
  });

  it('switching back to one’s own workspace closes the stream', async () => {
    await render(app, '/files?w=w2');
    expect(FakeStream.open().length).toBe(1);
    await act(async () => setCurrentWorkspace(undefined));
    await settle();
    expect(FakeStream.open()).toEqual([]);
  });
});

describe('watchWorkspace, in fake time', () => {
  const list = (...ids: string[]): WorkspaceList => ({
    workspaces: ids.map((id) => ({ ...shop, id, ownerId: id })),
  });
  let streams: FakeStream[];
  let now: number;
  afterEach(() => {
    vi.useRealTimers();
  });
  beforeEach(() => {
    vi.useFakeTimers();
    streams = [];
    now = 0;
  });
  const options = (readList: () => Promise<Response>) => ({
    openStream: (url: string) => {
      const s = new FakeStream(url);
      streams.push(s);
      return s;
    },
    readList,
    random: () => 0.5,
    now: () => now,
  });
  const flush = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };

  it('the network down: the list is asked again after 1, 2, 4… s (with jitter), up to 30 s, never in a tight loop', async () => {
    let reads = 0;
    let down = true;
    const onRemoved = vi.fn();
    const onList = vi.fn();
    const stop = watchWorkspace(
      'w2',
      { onRemoved, onList },
      options(async () => {
        reads += 1;
        if (down) throw new TypeError('Failed to fetch');
        return json(list('u1', 'w2'));
      }),
    );
    expect(streams.map((s) => s.url)).toEqual([workspaceStreamUrl('w2')]);
    now = 60_000; // it had been open a minute
    streams[0]?.fail();
    await flush();
    expect(reads).toBe(1);
    // with random() = 0.5 each wait is three quarters of its ceiling: 750, 1500, 3000, ... ms
    const waits = [750, 1500, 3000, 6000, 12_000, 22_500, 22_500];
    for (const wait of waits) {
      const before = reads;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(reads).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(reads).toBe(before + 1);
    }
    expect(streams.length).toBe(1); // no stream while the list cannot be read
    down = false;
    await vi.advanceTimersByTimeAsync(22_500);
    expect(onList).toHaveBeenCalledTimes(1);
    expect(onRemoved).not.toHaveBeenCalled();
    expect(streams.length).toBe(2);
    expect(streams[1]?.closed).toBe(false);
    stop();
    expect(streams[1]?.closed).toBe(true);
  });

  it('a stream that keeps ending at once is opened again only after growing waits', async () => {
    let reads = 0;
    const stop = watchWorkspace(
      'w2',
      { onRemoved: vi.fn(), onList: vi.fn() },
      options(async () => {
        reads += 1;
        return json(list('u1', 'w2'));
      }),
    );
    // the first quick end (a role changed just after the page opened) is opened again at once
    streams.at(-1)?.fail();
    await flush();
    expect(streams.length).toBe(2);
    for (const wait of [750, 1500, 3000]) {
      streams.at(-1)?.fail(); // ends as soon as it opened
      await flush();
      const opened = streams.length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(streams.length).toBe(opened);
      await vi.advanceTimersByTimeAsync(1);
      expect(streams.length).toBe(opened + 1);
    }
    expect(reads).toBe(4);
    // a stream that lived a while ends: it opens again at once
    now += 60_000;
    streams.at(-1)?.fail();
    await flush();
    expect(streams.length).toBe(6);
    stop();
  });

  it('NOT_A_MEMBER from the gateway is a removal; nothing is opened or asked again', async () => {
    const onRemoved = vi.fn();
    let reads = 0;
    watchWorkspace(
      'w2',
      { onRemoved, onList: vi.fn() },
      options(async () => {
        reads += 1;
        return json({ code: 'NOT_A_MEMBER', message: 'no' }, 403);
      }),
    );
    streams[0]?.fail();
    await flush();
    expect(onRemoved).toHaveBeenCalledWith('w2');
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(reads).toBe(1);
    expect(streams.length).toBe(1);
  });

  it('the waits: doubling from 1 s, capped at 30 s, jitter takes off up to half', () => {
    expect(backoffMs(1, () => 1)).toBe(1000);
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(4000);
    expect(backoffMs(20, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(20, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});

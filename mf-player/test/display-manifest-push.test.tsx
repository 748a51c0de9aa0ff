// @vitest-environment jsdom
// The display's manifest over its socket (device-link.ts, use-display-session.ts): its `hello` names the version it
// read (the ETag of GET /api/screens/device/me), so an unchanged manifest is not read again after a reconnection; a
// `manifest` frame carrying the manifest's text is taken as that read's answer (nothing read: at a takeover on a whole
// fleet, or after a power cut, that is one read less per display); a frame with the version alone, or with a text
// that is no manifest, reads it, with the version held as If-None-Match.
import type { DeviceScreen } from '@pagecast/contracts';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetEtags } from '../src/lib/conditional-fetch';
import { createWaitingBoard } from '../src/features/display/model/retry';
import { useDeviceLink } from '../src/features/display/model/use-display-links';
import { useDisplaySession } from '../src/features/display/model/use-display-session';
import { byTestId, net, render, settle, setupDom } from './dom-harness';
import { FakeSocket } from './fake-socket';

setupDom();

const screen = (name: string) =>
  ({
    screenId: 's1',
    name,
    timeZone: 'Asia/Tokyo',
    assignment: { kind: 'none' },
    heartbeatSeconds: 15,
    groups: [],
    takeovers: [],
  }) as unknown as DeviceScreen;

/** The page's WebSocket: each one opened, its frames down inside act (the page renders what they change). */
class PageSocket extends FakeSocket {
  static all: PageSocket[] = [];
  constructor(readonly url: string) {
    super();
    PageSocket.all.push(this);
  }
  override down(frame: unknown) {
    act(() => super.down(frame));
  }
  override drop(code = 1006) {
    act(() => super.drop(code));
  }
}

const board = createWaitingBoard();
function Display() {
  const { state, refresh, given, unpaired } = useDisplaySession(board);
  return state.kind === 'paired' ? (
    <Linked refresh={refresh} given={given} unpaired={unpaired} name={state.screen.name} />
  ) : null;
}
function Linked(p: {
  refresh: () => Promise<void>;
  given: (version: string, manifest: string) => boolean;
  unpaired: () => void;
  name: string;
}) {
  useDeviceLink({ ...p, reload: () => undefined, board });
  return <div data-testid="name">{p.name}</div>;
}

let current: { version: string; screen: DeviceScreen };
const reads = () => net.calls.filter((c) => c.path === '/api/screens/device/me');
const lastSocket = () => PageSocket.all.at(-1) as PageSocket;

beforeEach(() => {
  forgetEtags();
  PageSocket.all = [];
  vi.stubGlobal('WebSocket', PageSocket);
  current = { version: 'W/"v1"', screen: screen('Lobby') };
  localStorage.setItem('pagecast.screen.device', JSON.stringify(current.screen));
  net.serve = (call) => {
    if (call.path !== '/api/screens/device/me') return undefined;
    if (call.headers.get('If-None-Match') === current.version) return new Response(null, { status: 304 });
    return new Response(JSON.stringify(current.screen), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: current.version },
    });
  };
});

/** Booted on v1 (read once), its socket live, then v2 ('Hall') pushed with its text; the socket. */
async function pushedHall(): Promise<PageSocket> {
  await render(<Display />);
  await settle();
  const ws = lastSocket();
  ws.accept();
  ws.down({ type: 'manifest', version: 'W/"v1"' });
  current = { version: 'W/"v2"', screen: screen('Hall') };
  ws.down({ type: 'manifest', version: current.version, manifest: JSON.stringify(current.screen) });
  await settle();
  return ws;
}

describe("the display's manifest over its socket", () => {
  it('says hello with the version it read, and takes a pushed manifest without reading it', async () => {
    await render(<Display />);
    await settle();
    expect(reads()).toHaveLength(1);
    const ws = lastSocket();
    ws.accept();
    // the version it read (before: none, so every reconnection read its manifest again)
    expect(ws.sent[0]).toEqual({ type: 'hello', version: 'W/"v1"' });
    ws.down({ type: 'manifest', version: 'W/"v1"' });
    await settle();
    expect(reads()).toHaveLength(1);

    // a takeover: the new version with its text
    current = { version: 'W/"v2"', screen: screen('Hall') };
    ws.down({ type: 'manifest', version: current.version, manifest: JSON.stringify(current.screen) });
    await settle();
    expect(byTestId('name')?.textContent).toBe('Hall');
    expect(reads()).toHaveLength(1);
    // kept for a reload with no network, as a read's answer is
    expect(JSON.parse(localStorage.getItem('pagecast.screen.device') ?? '{}').name).toBe('Hall');
  });

  it('reads the manifest for a version alone, or a text that is no manifest, with the pushed version held', async () => {
    const ws = await pushedHall();

    current = { version: 'W/"v3"', screen: screen('Foyer') };
    ws.down({ type: 'manifest', version: current.version });
    await settle();
    expect(byTestId('name')?.textContent).toBe('Foyer');
    expect(reads()).toHaveLength(2);
    // the read named the version the socket gave
    expect(reads()[1]?.headers.get('If-None-Match')).toBe('W/"v2"');

    current = { version: 'W/"v4"', screen: screen('Hall 2') };
    ws.down({ type: 'manifest', version: current.version, manifest: 'not json' });
    await settle();
    expect(byTestId('name')?.textContent).toBe('Hall 2');
    expect(reads()).toHaveLength(3);
  });

  it('after a drop, says hello again with the version the socket gave, and reads no unchanged manifest', async () => {
    const ws = await pushedHall();
    ws.drop();
    await act(async () => {
      await vi.waitFor(() => expect(PageSocket.all.length).toBe(2), { timeout: 5000 });
    });
    const again = lastSocket();
    again.accept();
    expect(again.sent[0]).toEqual({ type: 'hello', version: 'W/"v2"' });
    // resumed with the version it holds: its content is read again, its manifest not
    again.down({ type: 'manifest', version: 'W/"v2"' });
    await settle();
    expect(reads()).toHaveLength(1);
    expect(byTestId('name')?.textContent).toBe('Hall');
  });
});

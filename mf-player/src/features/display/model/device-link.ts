// The display's one connection (docs/device-socket.md): a WebSocket through the gateway carrying its heartbeats,
// play batches and key up (answered by `reply` frames with the HTTP routes' status and body), its content reads (a
// playlist's items, a file's pages: `reply` frames with the HTTP read's status, ETag and body, a 304 when the ETag it
// holds is current), and what it should play down (the manifest's version after a change, its watched playlists' and
// files' events, its revocation). While it is live the display polls nothing: no heartbeat POSTs, no live stream
// (SSE), no manifest reads but after a change, no content reads over HTTP (after an edit a whole fleet reads at once,
// and each HTTP read was a new connection through the gateway).
//
// Behind a proxy that refuses WebSockets the display uses the HTTP device API, HTTP content reads and the live
// stream, as before: the socket falls back by itself when it closes before its first `manifest` FALLBACK_AFTER times
// in a row, and is tried again later (SOCKET_RETRY_MS, drawn at random like every wait of the display). A live socket
// that drops is opened again backing off (retry.ts); a call whose reply never came is failed, and its sender sends it
// again (on whichever path is up then): the play batch path counts each record once, so at least once is safe. A
// content read whose reply never came is made over HTTP at once (content-reads.ts).
import {
  backoffDelay,
  DEVICE_SOCKET_CLOSE,
  DEVICE_SOCKET_PATH,
  type DEVICE_SOCKET_READS,
  type DeviceReadRequest,
  type DeviceSocketDown,
} from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { retryDelay } from './retry';

/** 'connecting': opening (or opening again after a drop); 'live': open and answered `hello'; 'http': fallen back. */
export type LinkState = 'connecting' | 'live' | 'http';

/** Closes before the first `manifest`, in a row, after which the display uses HTTP. */
export const FALLBACK_AFTER = 2;
/** How long a fallen-back display waits before trying the socket again (drawn between half and all of it). */
export const SOCKET_RETRY_MS = 5 * 60_000;
/** A call unanswered this long is failed (its sender sends it again). */
export const CALL_TIMEOUT_MS = 15_000;
/** How long a call waits for a socket still opening before it goes over HTTP. */
export const SETTLE_MS = 3000;

/** A content read the socket carries (DEVICE_SOCKET_READS). */
export type DeviceReadType = (typeof DEVICE_SOCKET_READS)[number];
/** A content read's whole answer: the HTTP read's status, its ETag, and its body (null for a 304). */
export interface ReadReply {
  status: number;
  etag?: string;
  body: unknown;
}

/** A call that could not go over the socket (not live, dropped, unanswered): the sender tries again later. */
export class LinkOffline extends Error {
  constructor(why: string) {
    super(`device socket: ${why}`);
    this.name = 'LinkOffline';
  }
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
};

export interface DeviceLinkDeps {
  /** the WebSocket constructor (absent: the display uses HTTP only) */
  socket: ((url: string) => SocketLike) | null;
  url: string;
  /** the manifest version (ETag) the display holds */
  heldVersion(): string | null;
  /**
   * the manifest changed (a version other than the one held): read it again, or take `manifest`, the read's body
   * (its text) when the gateway sent it with the version
   */
  onManifest(version: string, manifest?: string): void;
  /** a watched playlist or file changed */
  onEvent(event: { id: string; type: string; data: Record<string, string> }): void;
  /** live again after a drop: what changed meanwhile is read again */
  onResumed(): void;
  /** revoked (close 4401): pair again */
  onRevoked(): void;
  /** the next try of a dropped socket (the page says what it waits for), or null once live or fallen back */
  onWaiting?(retryAt: number | null): void;
  random?: () => number;
}

/** The wait before a fallen-back display tries the socket again: equal jitter, as retry.ts draws every wait. */
const socketRetryDelay = (random: () => number) => backoffDelay(1, SOCKET_RETRY_MS, SOCKET_RETRY_MS, random);

/** Calls sent and not answered yet, by ref: each answered by its reply, failed after CALL_TIMEOUT_MS or a close. */
function pendingCalls() {
  type Pending = { resolve(v: unknown): void; reject(e: unknown): void; timer: ReturnType<typeof setTimeout> };
  const pending = new Map<number, Pending>();
  let nextRef = 0;
  return {
    /** sends a frame under the next ref: its reply's status, ETag and body */
    send(socket: Pick<WebSocket, 'send'>, type: string, body: unknown): Promise<ReadReply> {
      nextRef += 1;
      const ref = nextRef;
      const answer = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(ref);
          reject(new LinkOffline('no reply'));
        }, CALL_TIMEOUT_MS);
        pending.set(ref, { resolve, reject, timer });
      });
      socket.send(JSON.stringify({ type, ref, body }));
      return answer.then((frame) => {
        const { status, etag, body: replyBody } = frame as ReadReply;
        return { status, etag, body: replyBody };
      });
    },
    answer(ref: number, frame: unknown) {
      const p = pending.get(ref);
      if (!p) return;
      pending.delete(ref);
      clearTimeout(p.timer);
      p.resolve(frame);
    },
    failAll(why: string) {
      for (const [ref, p] of pending) {
        clearTimeout(p.timer);
        pending.delete(ref);
        p.reject(new LinkOffline(why));
      }
    },
  };
}

/** Callers waiting for the socket to be live or fallen back (each for at most its own time). */
function settleWaiters() {
  const waiters = new Set<() => void>();
  return {
    wait: (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          waiters.delete(done);
          resolve();
        };
        const t = setTimeout(done, ms);
        waiters.add(done);
      }),
    release() {
      for (const w of [...waiters]) w();
    },
  };
}

export function createDeviceLink(d: DeviceLinkDeps) {
  const random = d.random ?? Math.random;
  let state: LinkState = d.socket ? 'connecting' : 'http';
  let ws: SocketLike | null = null;
  let stopped = false;
  let wasLive = false;
  /** closes before a `manifest`, in a row; drops of a live socket, in a row */
  let failures = 0;
  let drops = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = pendingCalls();
  let watchFrame: string | null = null;
  const listeners = new Set<() => void>();
  const waiters = settleWaiters();

  const setState = (next: LinkState) => {
    if (state === next) return;
    state = next;
    if (next !== 'connecting') waiters.release();
    for (const l of [...listeners]) l();
  };

  const onFrame = (frame: DeviceSocketDown) => {
    if (frame.type === 'manifest') {
      if (state !== 'live') {
        failures = 0;
        drops = 0;
        d.onWaiting?.(null);
        setState('live');
        if (watchFrame) ws?.send(watchFrame);
        if (wasLive) d.onResumed();
        wasLive = true;
      }
      if (frame.version !== d.heldVersion()) d.onManifest(frame.version, frame.manifest);
    } else if (frame.type === 'reply' && frame.ref !== null) pending.answer(frame.ref, frame);
    else if (frame.type === 'event') d.onEvent(frame.event);
  };

  const open = () => {
    timer = undefined;
    if (stopped || !d.socket) return;
    let socket: SocketLike;
    try {
      socket = d.socket(d.url);
    } catch {
      return closed(1006);
    }
    ws = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', version: d.heldVersion() }));
    socket.onmessage = (ev) => {
      try {
        onFrame(JSON.parse(String(ev.data)) as DeviceSocketDown);
      } catch {
        // not a frame of ours: ignored
      }
    };
    socket.onerror = () => undefined; // a close follows
    socket.onclose = (ev) => {
      if (ws !== socket) return;
      closed(ev.code);
    };
  };

  const socketRetry = () => socketRetryDelay(random);

  const closed = (code: number) => {
    ws = null;
    pending.failAll('closed');
    if (stopped) return;
    if (code === DEVICE_SOCKET_CLOSE.revoked) {
      stopped = true;
      setState('http');
      d.onRevoked();
      return;
    }
    if (state === 'live') {
      // dropped after working: opened again soon, the HTTP path meanwhile
      drops += 1;
      setState('connecting');
    } else if (state === 'connecting') failures += 1;
    if (failures >= FALLBACK_AFTER) {
      // refused or blocked on the way: HTTP and the live stream, and the socket again much later
      failures = 0;
      d.onWaiting?.(null);
      setState('http');
      timer = setTimeout(open, socketRetry());
      return;
    }
    if (state === 'http') {
      timer = setTimeout(open, socketRetry());
      return;
    }
    const ms = retryDelay(Math.max(drops, failures, 1), random);
    d.onWaiting?.(Date.now() + ms);
    timer = setTimeout(open, ms);
  };

  /** Resolves once the socket is live or fallen back, or after `ms` (a call then goes over HTTP). */
  const settled = (ms: number) => (state !== 'connecting' ? Promise.resolve() : waiters.wait(ms));

  /** A frame sent over the live socket, answered by the `reply` of its ref (LinkOffline when not live or dropped). */
  const send = (type: string, body: unknown): Promise<ReadReply> => {
    const socket = ws;
    if (state !== 'live' || !socket || socket.readyState !== 1) return Promise.reject(new LinkOffline('not live'));
    return pending.send(socket, type, body);
  };

  /** A call over the socket: the body of a 2xx reply, else the HTTP path's HttpError (same status and body). */
  const call = (type: string, body: unknown): Promise<unknown> =>
    send(type, body).then(({ status, body: replyBody }) => {
      if (status >= 200 && status < 300) return replyBody;
      throw new HttpError(status, '', JSON.stringify(replyBody ?? null));
    });

  return {
    start() {
      stopped = false;
      if (d.socket && !ws && timer === undefined) open();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      pending.failAll('stopped');
      ws?.close(1000, 'bye');
      ws = null;
      waiters.release();
    },
    get state() {
      return state;
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** The playlists and files whose changes this display wants (sent again on every new socket). */
    watch(playlists: readonly string[], files: readonly string[]) {
      watchFrame = JSON.stringify({ type: 'watch', playlists, files });
      if (state === 'live') ws?.send(watchFrame);
    },
    call,
    /** A content read over the socket: its whole reply, whatever the status (a 304 is an answer); LinkOffline as call. */
    read: (type: DeviceReadType, body: DeviceReadRequest): Promise<ReadReply> => send(type, body),
    settled,
  };
}
export type DeviceLink = ReturnType<typeof createDeviceLink>;

/** A device call over the socket when live (waiting a moment for one still opening), else over HTTP with `http`. */
export const viaLink =
  <B, R>(link: DeviceLink, type: 'heartbeat' | 'plays' | 'key', http: (body: B) => Promise<R>) =>
  async (body: B): Promise<R> => {
    await link.settled(SETTLE_MS);
    if (link.state === 'live') return (await link.call(type, body)) as R;
    return http(body);
  };

/** The socket's address on the page's own origin (the gateway). */
export const deviceSocketUrl = (location: { protocol: string; host: string }) =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${DEVICE_SOCKET_PATH}`;

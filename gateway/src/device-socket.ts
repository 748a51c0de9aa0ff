// The paired display's socket (docs/device-socket.md): one WebSocket per display, carrying its calls up (relayed to
// the screens service over core NATS, device-rpc in the kit; its content reads to file-conversion the same way) and
// what it should play down (the manifest's version after a change of its screen, the watched playlists' and files'
// events, its revocation).
//
// Cheap per message, since ten thousand displays share one core: the device cookie is verified once, at the upgrade;
// each frame is parsed once for `type` and `ref` and relayed as the text it came in; the service's answer is put into
// the reply frame without being parsed again; the revocation check is a lookup in the in-memory store the SCREENS
// stream feeds (and a revocation closes the display's sockets the moment it is read). No per-message compression
// (perMessageDeflate off: its zlib contexts cost memory per socket). One timer for all sockets pings the silent ones.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type AnyEvent,
  backoffDelay,
  DEVICE_COOKIE,
  DEVICE_SOCKET_CALLS,
  DEVICE_SOCKET_CLOSE,
  DEVICE_SOCKET_MAX_FRAME_BYTES,
  DEVICE_SOCKET_MAX_WATCHES,
  DEVICE_SOCKET_PATH,
  DEVICE_SOCKET_PING_SECONDS,
  DEVICE_SOCKET_READS,
  DEVICE_SOCKET_SILENT_SECONDS,
  errorMessagesJa,
  subjects,
} from '@pagecast/contracts';
import { DEVICE_RPC_BATCH_MAX, type DeviceRpcClient } from '@pagecast/service-kit';
import { LRUCache } from 'lru-cache';
import { type WebSocket, WebSocketServer } from 'ws';
import { readCookie } from './cookies';
import type { DeviceIdentity, DeviceVerifier } from './device';
import { watchKey } from './events';
import { liveView } from './live';
import type { Logger } from './log';
import type { RevocationStore } from './revocations';
import { fromOwnPage } from './same-origin';

/** One display's socket: what the gateway keeps of it (small: ten thousand of these live in one process). */
interface Conn {
  ws: WebSocket;
  device: DeviceIdentity;
  /** the manifest version the display holds (its hello, then what it was told) */
  version: string | null;
  /** the last frame or pong (ms), and the last protocol ping */
  seen: number;
  pinged: number;
  /** calls relayed and not answered yet */
  inflight: number;
  /** the rate window's start and the calls in it */
  windowStart: number;
  calls: number;
  /** the watch keys it asked for (playlists and files) */
  keys: string[];
}

/** A screen with a display connected: its sockets, the version screens last gave, a counter of its changes. */
interface ScreenEntry {
  conns: Set<Conn>;
  version: string | undefined;
  gen: number;
  /** that version's manifest text, as screens gave it to this device, until its displays have read it */
  manifest?: KeptManifest;
}

/** A manifest screens gave with its version: answered to the one device it was asked for, a few times, briefly. */
interface KeptManifest {
  json: string;
  deviceId: string;
  /** when screens gave it (the read's Date) */
  at: number;
  /** reads left: the screen's displays when it came */
  reads: number;
}

/** How long a kept manifest may answer reads (they come right after the push or the hello); memory stays small. */
const MANIFEST_KEEP_MS = 30_000;

export interface DeviceSocketOptions {
  devices: DeviceVerifier;
  revocations: RevocationStore;
  /** the display's signed identity header (device-headers.ts: reused for 10 s) */
  deviceHeader: (device: DeviceIdentity) => string;
  /** set once NATS is connected: the calls to screens, and the content reads to file-conversion */
  rpc: () => DeviceRpcClient | undefined;
  reads?: () => DeviceRpcClient | undefined;
  logger: Logger;
  publicUrl?: string;
  /** the HTTP device limit, the same per display: calls per window */
  windowMs: number;
  maxCalls: number;
  /** the caller's address as the HTTP path reads it (TRUST_PROXY); the peer's address when absent */
  clientAddress?: (req: IncomingMessage) => string;
  /** tests shorten these */
  pingMs?: number;
  silentMs?: number;
  /** how long changes are gathered before the new versions are asked for (a fleet change names many screens) */
  settleMs?: number;
  /** each relayed call once answered: its type, the service's status and the seconds it took (metrics) */
  onCall?: (type: string, status: number, seconds: number) => void;
  /** each refused upgrade, by the code answered (metrics) */
  onRefused?: (code: RefusalCode) => void;
}

/** Why an upgrade was refused: the code of its HTTP answer. */
export type RefusalCode = 'RATE_LIMITED' | 'CROSS_SITE_REQUEST' | 'UNAUTHORIZED' | 'SERVICE_UNAVAILABLE';

/** A refused upgrade the operator must hear of (the display can do nothing about it) is logged at most this often. */
const UNAVAILABLE_WARN_MS = 10_000;

/** The first wait before a hello screens did not answer is asked again, and the longest (doubling, with jitter). */
const HELLO_RETRY_MIN_MS = 1_000;
const HELLO_RETRY_MAX_MS = 15_000;

/** Calls relayed at once per socket; more are answered 429 (send again later). */
const MAX_INFLIGHT = 16;
/**
 * Version checks after a change running at once (a change to a whole fleet asks one per connected screen): two of
 * the relay's full batches in flight. Each check waits for its batch's round trip, so a fleet-wide change takes
 * (screens / this) round trips: at 32, a takeover on 5,000 screens reached the last one after 15 s under load.
 */
const CHECK_CONCURRENCY = 2 * DEVICE_RPC_BATCH_MAX;
const RELAYED = new Set<string>(DEVICE_SOCKET_CALLS);
const READS = new Set<string>(DEVICE_SOCKET_READS);
/**
 * A relayed call's frame as the display page and the harness write it (`JSON.stringify({ type, ref, body })`): its
 * type and ref read from its first bytes. The rest is the service's to parse, which it does anyway (400 VALIDATION
 * when it cannot): parsing a play batch's whole frame here only to read those two was 7 % of the gateway's CPU under
 * the displays' load (docs/scale.md). Anything else (hello, watch, ping, another order) is parsed whole, as before.
 */
const CALL_HEAD = /^\{"type":"([A-Za-z]{1,32})","ref":(0|[1-9]\d{0,14}),"body":/;

const errorBody = (code: 'VALIDATION' | 'NOT_FOUND' | 'RATE_LIMITED', extra = '') =>
  `{"code":"${code}","message":${JSON.stringify(errorMessagesJa[code])}${extra}}`;

const originOf = (url: string): string | undefined => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/** An HTTP answer to a refused upgrade (no socket): the same JSON body as the HTTP path's. */
function refuseUpgrade(socket: Duplex, status: number, text: string, code: string, retryAfterSeconds?: number) {
  const body = JSON.stringify({
    code,
    message: code === 'UNAUTHORIZED' ? 'Unauthorized' : errorMessagesJa[code as 'FORBIDDEN'],
    ...(retryAfterSeconds !== undefined ? { details: { retryAfterSeconds } } : {}),
  });
  const retry = retryAfterSeconds !== undefined ? `Retry-After: ${retryAfterSeconds}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
      `${retry}Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** A socket's error ends it (listener shared by every socket: it holds nothing of the upgrade). */
function destroyOnError(this: Duplex) {
  this.destroy();
}

/** Addresses whose refused upgrades are counted at once (the least recently seen is forgotten first). */
const REFUSALS_KEPT = 50_000;

export function createDeviceSockets(opts: DeviceSocketOptions) {
  const { logger } = opts;
  // refused upgrades per address in the current window (its start and count); a window ends with its entry's TTL
  const refusals = new LRUCache<string, { start: number; n: number }>({ max: REFUSALS_KEPT, ttl: opts.windowMs });
  const pingMs = opts.pingMs ?? DEVICE_SOCKET_PING_SECONDS * 1000;
  const silentMs = opts.silentMs ?? DEVICE_SOCKET_SILENT_SECONDS * 1000;
  const settleMs = opts.settleMs ?? 50;
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: DEVICE_SOCKET_MAX_FRAME_BYTES,
    clientTracking: false,
  });
  const byDevice = new Map<string, Set<Conn>>();
  const byScreen = new Map<string, ScreenEntry>();
  const byKey = new Map<string, Set<Conn>>();
  const counts = { opened: 0, relayed: 0, pushed: 0 };
  const configuredOrigin = opts.publicUrl ? originOf(opts.publicUrl) : undefined;

  const send = (c: Conn, text: string) => {
    if (c.ws.readyState === 1) c.ws.send(text);
  };
  /**
   * The version, and the manifest's text when screens gave it for this display's device (the body its read would
   * get, as a JSON string: the display reads nothing then; at a fleet-wide change or a power cut, thousands of reads)
   */
  const manifestFrame = (version: string, manifest?: string) =>
    manifest === undefined
      ? `{"type":"manifest","version":${JSON.stringify(version)}}`
      : `{"type":"manifest","version":${JSON.stringify(version)},"manifest":${JSON.stringify(manifest)}}`;

  const unwatch = (c: Conn) => {
    for (const key of c.keys) {
      const set = byKey.get(key);
      set?.delete(c);
      if (set?.size === 0) byKey.delete(key);
    }
    c.keys = [];
  };

  const forget = (c: Conn) => {
    const mine = byDevice.get(c.device.deviceId);
    mine?.delete(c);
    if (mine?.size === 0) byDevice.delete(c.device.deviceId);
    const screen = byScreen.get(c.device.screenId);
    screen?.conns.delete(c);
    if (screen?.conns.size === 0) {
      byScreen.delete(c.device.screenId);
      unkeep(screen);
    }
    unwatch(c);
  };

  /**
   * Asks screens for the manifest version (with this display's identity), and its text when screens gives it;
   * undefined when it could not answer.
   */
  const askVersion = async (c: Conn): Promise<{ version?: string; manifest?: string; status: number }> => {
    const rpc = opts.rpc();
    if (!rpc) return { status: 503 };
    const text = await rpc('manifest', opts.deviceHeader(c.device), '{}');
    try {
      const answer = JSON.parse(text) as { status: number; body?: { version?: unknown; manifest?: unknown } };
      const version = answer.body?.version;
      const manifest = answer.body?.manifest;
      return {
        status: answer.status,
        version: typeof version === 'string' ? version : undefined,
        manifest: typeof manifest === 'string' ? manifest : undefined,
      };
    } catch {
      return { status: 503 };
    }
  };
  // screens whose manifest text is kept (the sweep forgets it after MANIFEST_KEEP_MS)
  const keeping = new Set<ScreenEntry>();
  const keep = (screen: ScreenEntry, c: Conn, manifest: string | undefined) => {
    if (manifest === undefined) return;
    screen.manifest = { json: manifest, deviceId: c.device.deviceId, at: Date.now(), reads: screen.conns.size };
    keeping.add(screen);
  };
  const unkeep = (screen: ScreenEntry) => {
    screen.manifest = undefined;
    keeping.delete(screen);
  };

  const revokeConn = (c: Conn) => c.ws.close(DEVICE_SOCKET_CLOSE.revoked, 'revoked');

  // hellos screens did not answer (busy, restarting): logged at most every UNAVAILABLE_WARN_MS with how many
  let unanswered = { since: 0, n: 0 };
  const helloUnanswered = (status: number, screenId: string) => {
    unanswered.n++;
    const now = Date.now();
    if (now - unanswered.since < UNAVAILABLE_WARN_MS) return;
    logger.warn(
      { status, screenId, unanswered: unanswered.n },
      'device socket: screens gave no manifest version; asking again on the same sockets, backing off',
    );
    unanswered = { since: now, n: 0 };
  };

  /** `hello`: the current version, from what the gateway knows of the screen, else from screens. */
  const hello = async (c: Conn, version: string | null, attempt = 0): Promise<void> => {
    if (attempt > 0 && c.ws.readyState !== 1) return;
    c.version = version;
    const screen = byScreen.get(c.device.screenId);
    if (screen?.version !== undefined) {
      c.version = screen.version;
      return send(c, manifestFrame(screen.version));
    }
    const gen = screen?.gen ?? 0;
    const answer = await askVersion(c);
    if (answer.status === 401) return revokeConn(c);
    if (answer.version === undefined) {
      // screens could not answer (busy, restarting): asked again later on this socket, the wait doubling with jitter;
      // the display waits for its `manifest` (keeping what it plays). Closing it instead (1013) made every display
      // reconnect and ask again at once: at a fleet's boot on a busy core each retry was a new upgrade, a new hello
      // and its play batches again, and screens never caught up (4,348 closes in a 5,000-display run)
      if (c.ws.readyState !== 1) return;
      helloUnanswered(answer.status, c.device.screenId);
      const t = setTimeout(
        () =>
          void hello(c, version, attempt + 1).catch((err) => {
            logger.warn({ err }, 'device socket: hello failed');
            c.ws.close(DEVICE_SOCKET_CLOSE.tryAgain, 'try again');
          }),
        backoffDelay(attempt + 1, HELLO_RETRY_MIN_MS, HELLO_RETRY_MAX_MS),
      );
      t.unref();
      return;
    }
    const now = byScreen.get(c.device.screenId);
    // remembered only when no change was heard while asking (else a newer version may exist)
    const current = now !== undefined && now.gen === gen;
    if (current) {
      now.version = answer.version;
      // a display of an older page reads its manifest next (it holds another version): answered from this
      if (version !== answer.version) keep(now, c, answer.manifest);
    }
    c.version = answer.version;
    // the text with it, unless a change came meanwhile (its check pushes the newer one)
    send(c, manifestFrame(answer.version, current && version !== answer.version ? answer.manifest : undefined));
  };

  // Changes heard (live.ts reads screens.screen.changed.v1 and screens.fleet.changed.v1 from SCREENS): gathered for
  // settleMs, then each connected screen's new version is asked for and pushed to its displays that hold another.
  const changed = new Set<string>();
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const check = async (screenId: string) => {
    const screen = byScreen.get(screenId);
    const first = screen?.conns.values().next().value;
    if (!screen || !first) return;
    const gen = screen.gen;
    const answer = await askVersion(first);
    if (answer.status === 401) {
      for (const c of [...screen.conns]) revokeConn(c);
      return;
    }
    if (answer.version === undefined || screen.gen !== gen) {
      // no answer (or changed again meanwhile, checked again then): the displays are told to read their manifest
      if (answer.version === undefined) for (const c of screen.conns) pushChanged(c);
      return;
    }
    screen.version = answer.version;
    if ([...screen.conns].some((c) => c.version !== answer.version)) keep(screen, first, answer.manifest);
    for (const c of screen.conns) {
      if (c.version === answer.version) continue;
      c.version = answer.version;
      counts.pushed++;
      // the text to the display whose device screens was asked with; the screen's others read theirs
      send(c, manifestFrame(answer.version, c === first ? answer.manifest : undefined));
    }
  };
  /** Without a version from screens, a frame that cannot match what the display holds (it reads its manifest). */
  const pushChanged = (c: Conn) => {
    c.version = null;
    counts.pushed++;
    send(c, manifestFrame(`changed:${Date.now()}`));
  };
  const settle = async () => {
    settleTimer = undefined;
    const ids = [...changed];
    changed.clear();
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        await check(id).catch((err) => logger.warn({ err }, 'device socket: version check failed'));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, ids.length) }, worker));
  };
  const screenChanged = (screenId: string) => {
    const screen = byScreen.get(screenId);
    if (!screen) return;
    screen.gen++;
    screen.version = undefined;
    unkeep(screen);
    changed.add(screenId);
    settleTimer ??= setTimeout(() => void settle(), settleMs);
  };

  const watch = (c: Conn, frame: { playlists?: unknown; files?: unknown }) => {
    const { playlists, files } = frame;
    const ids = (list: unknown) =>
      Array.isArray(list) && list.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 100)
        ? (list as string[])
        : undefined;
    const p = ids(playlists ?? []);
    const f = ids(files ?? []);
    if (!p || !f || p.length + f.length > DEVICE_SOCKET_MAX_WATCHES) return false;
    unwatch(c);
    c.keys = [...new Set([...p.map(watchKey.playlist), ...f.map(watchKey.file)])];
    for (const key of c.keys) {
      const set = byKey.get(key) ?? new Set<Conn>();
      byKey.set(key, set);
      set.add(c);
    }
    return true;
  };

  const badFrame = (c: Conn) => {
    send(c, `{"type":"reply","ref":null,"status":400,"body":${errorBody('VALIDATION', ',"issues":[]')}}`);
    c.ws.close(DEVICE_SOCKET_CLOSE.badFrame, 'bad frame');
  };
  const reply = (c: Conn, ref: number, status: number, body: string) =>
    send(c, `{"type":"reply","ref":${ref},"status":${status},"body":${body}}`);

  const onMessage = (c: Conn, data: Buffer, isBinary: boolean) => {
    const now = Date.now();
    c.seen = now;
    if (isBinary) return badFrame(c);
    const head = CALL_HEAD.exec(data.toString('latin1', 0, 72));
    if (head && (RELAYED.has(head[1] as string) || READS.has(head[1] as string))) {
      if (opts.revocations.has(c.device.deviceId)) return revokeConn(c);
      return relay(c, head[1] as string, Number(head[2]), data, now);
    }
    const text = data.toString('utf8');
    let frame: { type?: unknown; ref?: unknown; version?: unknown; playlists?: unknown; files?: unknown };
    try {
      frame = JSON.parse(text);
    } catch {
      return badFrame(c);
    }
    if (!frame || typeof frame !== 'object' || typeof frame.type !== 'string') return badFrame(c);
    // a revocation is also acted on as it arrives (revoke below); this covers one read before the socket opened
    if (opts.revocations.has(c.device.deviceId)) return revokeConn(c);
    const type = frame.type;
    if (type === 'ping') return send(c, '{"type":"pong"}');
    if (type === 'hello') {
      const version = typeof frame.version === 'string' ? frame.version : null;
      return void hello(c, version).catch((err) => {
        logger.warn({ err }, 'device socket: hello failed');
        c.ws.close(DEVICE_SOCKET_CLOSE.tryAgain, 'try again');
      });
    }
    if (type === 'watch') return watch(c, frame) ? undefined : badFrame(c);
    const ref = frame.ref;
    if (typeof ref !== 'number' || !Number.isSafeInteger(ref) || ref < 0) return badFrame(c);
    return relay(c, type, ref, data, now);
  };

  /** A call to relay (its type and ref read): to the service, within the display's rate, its answer spliced back. */
  const relay = (c: Conn, type: string, ref: number, data: Buffer, now: number) => {
    const read = READS.has(type);
    if (!read && !RELAYED.has(type)) return reply(c, ref, 404, errorBody('NOT_FOUND'));
    if (now - c.windowStart >= opts.windowMs) {
      c.windowStart = now;
      c.calls = 0;
    }
    c.calls++;
    if (c.calls > opts.maxCalls || c.inflight >= MAX_INFLIGHT) {
      const retryAfterSeconds = Math.max(1, Math.ceil((c.windowStart + opts.windowMs - now) / 1000));
      return reply(c, ref, 429, errorBody('RATE_LIMITED', `,"details":{"retryAfterSeconds":${retryAfterSeconds}}`));
    }
    const rpc = read ? opts.reads?.() : opts.rpc();
    if (!rpc)
      return reply(c, ref, 503, `{"code":"SERVICE_UNAVAILABLE","message":"${errorMessagesJa.SERVICE_UNAVAILABLE}"}`);
    c.inflight++;
    counts.relayed++;
    const started = performance.now();
    void rpc(type, opts.deviceHeader(c.device), data).then((answer) => {
      c.inflight--;
      // `{"status":NNN,` as the kit writes it
      opts.onCall?.(type, Number(answer.slice(10, 13)), (performance.now() - started) / 1000);
      // `{"status":…,"body":…}` from the service, spliced in as it came
      send(c, `{"type":"reply","ref":${ref},${answer.slice(1)}`);
      // the service no longer knows this display (revoked, paired again): its socket closes as its HTTP calls fail
      if (answer.startsWith('{"status":401,')) revokeConn(c);
    });
  };

  const open = (ws: WebSocket, device: DeviceIdentity) => {
    const now = Date.now();
    const c: Conn = {
      ws,
      device,
      version: null,
      seen: now,
      pinged: now,
      inflight: 0,
      windowStart: now,
      calls: 0,
      keys: [],
    };
    counts.opened++;
    const mine = byDevice.get(device.deviceId) ?? new Set<Conn>();
    byDevice.set(device.deviceId, mine);
    mine.add(c);
    const screen = byScreen.get(device.screenId) ?? { conns: new Set<Conn>(), version: undefined, gen: 0 };
    byScreen.set(device.screenId, screen);
    screen.conns.add(c);
    ws.on('message', (data, isBinary) => onMessage(c, data as Buffer, isBinary));
    ws.on('pong', () => {
      c.seen = Date.now();
    });
    ws.on('close', (code) => {
      logger.debug({ code, deviceId: device.deviceId }, 'device socket closed');
      forget(c);
    });
    ws.on('error', (err) => {
      logger.warn({ err, deviceId: device.deviceId }, 'device socket error');
      forget(c);
    });
  };

  // One timer for every socket: a protocol ping to those silent for pingMs, the end of those silent for silentMs.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const screen of keeping) if (now - (screen.manifest?.at ?? 0) >= MANIFEST_KEEP_MS) unkeep(screen);
      for (const set of byDevice.values()) {
        for (const c of set) {
          if (now - c.seen >= silentMs) c.ws.terminate();
          else if (now - c.seen >= pingMs && now - c.pinged >= pingMs) {
            c.pinged = now;
            c.ws.ping();
          }
        }
      }
    },
    Math.max(100, Math.min(pingMs, silentMs) / 3),
  );
  sweep.unref();

  // Refusals are counted by code; the gateway's own (its device check could not run) are also logged, at most once
  // every UNAVAILABLE_WARN_MS with how many there were, since at a power cut's reconnection they come by thousands.
  let unavailable = { since: 0, n: 0 };
  const refuse = (
    socket: Duplex,
    status: number,
    text: string,
    code: RefusalCode,
    retryAfterSeconds?: number,
    err?: unknown,
  ) => {
    refuseUpgrade(socket, status, text, code, retryAfterSeconds);
    opts.onRefused?.(code);
    if (code !== 'SERVICE_UNAVAILABLE') return;
    unavailable.n++;
    const now = Date.now();
    if (now - unavailable.since < UNAVAILABLE_WARN_MS) return;
    opts.logger.warn(
      { err, refused: unavailable.n },
      "display sockets refused: the device check could not run (the screens service's keys unreachable?)",
    );
    unavailable = { since: now, n: 0 };
  };

  return {
    /** The server's 'upgrade' handler; false when the path is not the socket's (the caller refuses it). */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const path = (req.url ?? '').split('?')[0];
      if (path !== DEVICE_SOCKET_PATH) return false;
      // a function of the module, not a closure: a closure here would share this call's scope and keep the upgrade's
      // request (its headers, the cookie), head and address alive as long as the socket lives (about 2 KiB each)
      socket.on('error', destroyOnError);
      // an address whose upgrades keep failing (no credential, a revoked or forged one) is refused before any
      // verifying, for the rest of its window: the same per-address limit the HTTP path puts on invalid device calls
      const address = opts.clientAddress?.(req) ?? req.socket.remoteAddress ?? '';
      const refused = refusals.get(address);
      if (refused && refused.n >= opts.maxCalls) {
        const left = Math.max(1, Math.ceil((refused.start + opts.windowMs - Date.now()) / 1000));
        refuse(socket, 429, 'Too Many Requests', 'RATE_LIMITED', left);
        return true;
      }
      // another site's page must not open a display's socket with the display's cookie (cross-site WebSocket
      // hijacking): the browser's Origin must be ours (the Host it addressed, by either scheme, or PUBLIC_URL's)
      const own = new Set<string>();
      if (configuredOrigin) own.add(configuredOrigin);
      if (req.headers.host) {
        own.add(`http://${req.headers.host}`);
        own.add(`https://${req.headers.host}`);
      }
      if (!fromOwnPage(req.headers, own)) {
        refuse(socket, 403, 'Forbidden', 'CROSS_SITE_REQUEST');
        return true;
      }
      void opts.devices.check(readCookie(req.headers, DEVICE_COOKIE)).then(
        (outcome) => {
          if (outcome.kind === 'unavailable') return refuse(socket, 503, 'Service Unavailable', 'SERVICE_UNAVAILABLE');
          if (outcome.kind !== 'valid') {
            const counted = refusals.get(address) ?? { start: Date.now(), n: 0 };
            counted.n++;
            refusals.set(address, counted, { noUpdateTTL: counted.n > 1 });
            return refuse(socket, 401, 'Unauthorized', 'UNAUTHORIZED');
          }
          const device = outcome.device;
          wss.handleUpgrade(req, socket, head, (ws) => open(ws, device));
        },
        (err: unknown) => refuse(socket, 503, 'Service Unavailable', 'SERVICE_UNAVAILABLE', undefined, err),
      );
      return true;
    },
    /**
     * The manifest version of a screen with a display connected, as screens last gave it and no change heard since
     * (undefined otherwise): GET /api/screens/device/me with this If-None-Match is answered 304 by the gateway.
     */
    versionOf(screenId: string): string | undefined {
      return byScreen.get(screenId)?.version;
    },
    /**
     * The current manifest of a screen with a display connected, for the device screens gave it to (the one it was
     * asked with: screens judged that device may read it), while no change was heard since and for at most
     * MANIFEST_KEEP_MS, each display of the screen once: GET /api/screens/device/me is answered with it by the
     * gateway (the same bytes and ETag as screens' answer). Undefined otherwise: the read goes to screens.
     */
    manifestFor(screenId: string, deviceId: string): { version: string; json: string; at: number } | undefined {
      const screen = byScreen.get(screenId);
      const kept = screen?.manifest;
      if (!screen || !kept || screen.version === undefined || kept.deviceId !== deviceId) return undefined;
      if (Date.now() - kept.at >= MANIFEST_KEEP_MS) return void unkeep(screen);
      if (--kept.reads <= 0) unkeep(screen);
      return { version: screen.version, json: kept.json, at: kept.at };
    },
    /** A display's revocation was read (feeds.ts): its sockets close now. */
    revoke(deviceId: string) {
      for (const c of [...(byDevice.get(deviceId) ?? [])]) revokeConn(c);
    },
    /** Every event the live feed reads: a change of a connected screen, or of a watched playlist or file. */
    onEvent(event: AnyEvent) {
      if (byDevice.size === 0) return;
      if (event.type === subjects.screenChanged) return screenChanged(event.data.screenId);
      if (event.type === subjects.fleetChanged) {
        for (const id of event.data.screenIds) screenChanged(id);
        return;
      }
      const view = liveView(event);
      if (!view) return;
      let frame: string | undefined;
      for (const key of view.keys) {
        for (const c of byKey.get(key) ?? []) {
          frame ??= `{"type":"event","event":${JSON.stringify(view.forwarded)}}`;
          send(c, frame);
        }
      }
    },
    /** The gateway stops: every display reconnects (to another gateway, or to this one when back). */
    closeAll() {
      clearInterval(sweep);
      clearTimeout(settleTimer);
      for (const set of [...byDevice.values()])
        for (const c of [...set]) c.ws.close(DEVICE_SOCKET_CLOSE.restart, 'restart');
    },
    get size() {
      let n = 0;
      for (const set of byDevice.values()) n += set.size;
      return n;
    },
    counts,
  };
}
export type DeviceSockets = ReturnType<typeof createDeviceSockets>;

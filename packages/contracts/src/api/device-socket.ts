// The paired display's socket (docs/device-socket.md): one WebSocket through the gateway carrying its calls up and
// what it should play down. Names agreed with the load generator: fields may be added, none renamed.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id } from '../validation';
import { RegisterDisplayKeyRequest } from './play-signature';
import { HeartbeatRequest, PlayBatchRequest } from './screens';

/** The upgrade route (GET, then WebSocket), on the gateway. */
export const DEVICE_SOCKET_PATH = '/api/screens/device/socket';

/** Close codes the gateway uses (the display reconnects after any of them but `revoked`, which unpairs it). */
export const DEVICE_SOCKET_CLOSE = {
  /** the display's credential was revoked (or its screen paired again elsewhere): pair again */
  revoked: 4401,
  /** a frame that is not JSON, or has no `type`, after an error reply */
  badFrame: 4400,
  /** the gateway is stopping: reconnect */
  restart: 1012,
  /** the service could not answer `hello`: reconnect later */
  tryAgain: 1013,
} as const;

/** Seconds between the gateway's protocol pings, and the silence after which it closes a socket. */
export const DEVICE_SOCKET_PING_SECONDS = 30;
export const DEVICE_SOCKET_SILENT_SECONDS = 75;
/** Playlist and file ids one socket may watch (as one live stream). */
export const DEVICE_SOCKET_MAX_WATCHES = 50;
/** The largest frame the gateway takes: the HTTP bodies' limit (1 MiB). */
export const DEVICE_SOCKET_MAX_FRAME_BYTES = 1024 * 1024;

const Ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * A content read over the socket: the playlist's or the file's id, and the ETag of the answer the display holds
 * (its HTTP read's If-None-Match): an unchanged answer is a `reply` of status 304 with no body.
 */
export const DeviceReadRequest = z.object({ id: Id, etag: z.string().max(200).optional() });
export type DeviceReadRequest = z.infer<typeof DeviceReadRequest>;

/** Display → gateway. */
export const DeviceSocketUp = z.discriminatedUnion('type', [
  /** first after open: the manifest version (ETag) it holds */
  z.object({ type: z.literal('hello'), version: z.string().max(200).nullable() }),
  z.object({ type: z.literal('heartbeat'), ref: Ref, body: HeartbeatRequest }),
  z.object({ type: z.literal('plays'), ref: Ref, body: PlayBatchRequest }),
  z.object({ type: z.literal('key'), ref: Ref, body: RegisterDisplayKeyRequest }),
  /** GET /api/playlists/:id/items, read over the socket (answered by file-conversion with the same rules) */
  z.object({ type: z.literal('playlist'), ref: Ref, body: DeviceReadRequest }),
  /** GET /api/files/:id/pages?signage_mode=true, read over the socket */
  z.object({ type: z.literal('pages'), ref: Ref, body: DeviceReadRequest }),
  /** the playlists and files whose changes it wants as `event` frames (replaces what it watched) */
  z.object({
    type: z.literal('watch'),
    playlists: z.array(z.string().max(100)).max(DEVICE_SOCKET_MAX_WATCHES),
    files: z.array(z.string().max(100)).max(DEVICE_SOCKET_MAX_WATCHES),
  }),
  z.object({ type: z.literal('ping') }),
]);
export type DeviceSocketUp = z.infer<typeof DeviceSocketUp>;

/** The calls relayed to the screens service (`screens.device.<type>`), each answered by a `reply`. */
export const DEVICE_SOCKET_CALLS = ['heartbeat', 'plays', 'key'] as const;
/**
 * The content reads relayed to file-conversion (`files.device.<type>`), each answered by a `reply` with the HTTP
 * read's status, body and ETag: after an edit thousands of displays read at once, and over HTTP each read was a new
 * connection (the keep-alive long closed) through the gateway's accept queue and two HTTP hops.
 */
export const DEVICE_SOCKET_READS = ['playlist', 'pages'] as const;

/** Gateway → display. */
export const DeviceSocketDown = z.discriminatedUnion('type', [
  /** the HTTP route's status and JSON body for the same input (error bodies included) */
  // (ref null: the answer to a frame the gateway could not read, before it closes the socket with 4400)
  // (etag: a content read's, as the HTTP answer's ETag header; a 304 has no body)
  z.object({
    type: z.literal('reply'),
    ref: Ref.nullable(),
    status: z.number().int(),
    etag: z.string().optional(),
    body: z.unknown(),
  }),
  /**
   * the manifest's current version: the display reads GET /api/screens/device/me when it differs from its own, unless
   * `manifest` is given: that read's body (the same text, whose ETag is `version`), sent to the one display screens
   * was asked for, so it reads nothing
   */
  z.object({ type: z.literal('manifest'), version: z.string(), manifest: z.string().optional() }),
  /** a change to a watched playlist or file: the same ids-only event as the live stream's */
  z.object({
    type: z.literal('event'),
    event: z.object({ id: z.string(), type: z.string(), data: z.record(z.string(), z.string()) }),
  }),
  z.object({ type: z.literal('pong') }),
]);
export type DeviceSocketDown = z.infer<typeof DeviceSocketDown>;

/**
 * The upgrade, in the route table so the OpenAPI document shows it: answered by the gateway itself (never proxied),
 * 101 then frames; 401 without a valid device cookie, 403 from another site's page, 426 without an upgrade.
 */
export const deviceSocketRoutes = defineRoutes([
  {
    id: 'deviceSocket',
    method: 'get',
    path: DEVICE_SOCKET_PATH,
    service: 'screens',
    auth: 'device',
    successStatus: 101,
    summary:
      "The paired display's socket (WebSocket, answered by the gateway): heartbeats, play batches, its key and its " +
      "content reads (playlist items, file pages) go up as frames answered by `reply` frames with the HTTP routes' " +
      'status, body (and ETag); the manifest version, watched ' +
      'changes and revocation (close 4401) come down, so a connected display polls nothing. Frames and close codes: ' +
      'docs/device-socket.md',
    response: DeviceSocketDown,
    socketFrames: { up: DeviceSocketUp, down: DeviceSocketDown },
  },
]);

// The paired display's socket (docs/device-socket.md): one WebSocket through the gateway carrying its calls up and
// what it should play down. Names agreed with the load generator: fields may be added, none renamed.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
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

/** Display → gateway. */
export const DeviceSocketUp = z.discriminatedUnion('type', [
  /** first after open: the manifest version (ETag) it holds */
  z.object({ type: z.literal('hello'), version: z.string().max(200).nullable() }),
  z.object({ type: z.literal('heartbeat'), ref: Ref, body: HeartbeatRequest }),
  z.object({ type: z.literal('plays'), ref: Ref, body: PlayBatchRequest }),
  z.object({ type: z.literal('key'), ref: Ref, body: RegisterDisplayKeyRequest }),
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

/** Gateway → display. */
export const DeviceSocketDown = z.discriminatedUnion('type', [
  /** the HTTP route's status and JSON body for the same input (error bodies included) */
  // (ref null: the answer to a frame the gateway could not read, before it closes the socket with 4400)
  z.object({ type: z.literal('reply'), ref: Ref.nullable(), status: z.number().int(), body: z.unknown() }),
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
      "The paired display's socket (WebSocket, answered by the gateway): heartbeats, play batches and its key go up " +
      "as frames answered by `reply` frames with the HTTP routes' status and body; the manifest version, watched " +
      'changes and revocation (close 4401) come down, so a connected display polls nothing. Frames and close codes: ' +
      'docs/device-socket.md',
    response: DeviceSocketDown,
    socketFrames: { up: DeviceSocketUp, down: DeviceSocketDown },
  },
]);

// A paired display's calls over its socket (docs/device-socket.md): the gateway relays each frame to the service
// over core NATS request/reply, `screens.device.<type>` in the queue group `screens` (one instance of the service
// answers each), with the display's signed identity in the NATS headers as on the HTTP path. No JetStream: a reply
// is wanted now or never (the display sends again on the next socket), and core NATS costs one message each way.
//
// The payload is the display's frame as it came (`{"type","ref","body"}`): the gateway reads `type` and `ref` and
// passes the text on unchanged; the service parses it and answers `{"status","body"}` text, which the gateway sends
// to the display inside its reply frame without parsing it again.
import { type DeviceIdentity, errorMessagesJa, IDENTITY_HEADER, streamForSubject } from '@pagecast/contracts';
import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { pino } from 'pino';
import { z } from 'zod';
import { AppError, errorAnswer } from './errors';
import { verifyAnyIdentityHeader } from './identity';

/**
 * Subjects of the display's calls: `rpc.screens.device.<type>`. Not under `screens.`: the SCREENS stream stores
 * `screens.>`, and a request there would be stored and answered by JetStream's acknowledgement (first) as well.
 */
export const DEVICE_RPC_PREFIX = 'rpc.screens.device';

/** A prefix for the calls' subjects (configuration): dot-separated tokens, none of its subjects stored by a stream. */
export const deviceRpcPrefix = z
  .string()
  .regex(/^[\w-]+(\.[\w-]+)*$/, 'must be dot-separated tokens')
  .refine((prefix) => streamForSubject(`${prefix}.heartbeat`) === undefined, {
    message: 'must not be under a subject a JetStream stream stores (its requests would be stored and acknowledged)',
  });
/** Instances of the service share the calls (one answers each). */
export const DEVICE_RPC_QUEUE = 'screens';
/** How long the gateway waits for the service before answering 503 (the display sends again later). */
export const DEVICE_RPC_TIMEOUT_MS = 10_000;

export const deviceRpcSubject = (type: string) => `${DEVICE_RPC_PREFIX}.${type}`;

/** What a handler answers: the HTTP route's status (200 when absent) and JSON body. */
export interface DeviceRpcAnswer {
  status?: number;
  body: unknown;
}
export type DeviceRpcHandler = (device: DeviceIdentity, body: unknown) => Promise<DeviceRpcAnswer> | DeviceRpcAnswer;

const unavailable = JSON.stringify({
  status: 503,
  body: { code: 'SERVICE_UNAVAILABLE', message: errorMessagesJa.SERVICE_UNAVAILABLE },
});
const tooLarge = JSON.stringify({
  status: 413,
  body: { code: 'PAYLOAD_TOO_LARGE', message: errorMessagesJa.PAYLOAD_TOO_LARGE },
});

/**
 * The service's side: answers `screens.device.*` in the queue group with `handlers[type]`, given the verified device
 * and the frame's `body`; a thrown error answers as the HTTP routes' error handler would (errorAnswer). An unknown
 * type is 404 NOT_FOUND, a bad or missing identity 401, a frame that is not JSON 400 VALIDATION.
 */
export function serveDeviceRpc(
  nc: NatsConnection,
  opts: {
    secret: string;
    handlers: Record<string, DeviceRpcHandler>;
    logger: pino.Logger;
    queue?: string;
    prefix?: string;
  },
): { subscription: Subscription; stop(): Promise<void> } {
  const prefix = opts.prefix ?? DEVICE_RPC_PREFIX;
  const handle = async (msg: Msg) => {
    let answer: { status: number; body: unknown };
    try {
      const identity = verifyAnyIdentityHeader(msg.headers?.get(IDENTITY_HEADER) || undefined, opts.secret);
      if (!identity || !('kind' in identity)) throw new AppError('UNAUTHORIZED');
      const handler = Object.hasOwn(opts.handlers, msg.subject.slice(prefix.length + 1))
        ? opts.handlers[msg.subject.slice(prefix.length + 1)]
        : undefined;
      if (!handler) throw new AppError('NOT_FOUND');
      let frame: { body?: unknown } | null;
      try {
        frame = msg.data.length > 0 ? (JSON.parse(msg.string()) as { body?: unknown } | null) : null;
      } catch (cause) {
        throw new AppError('VALIDATION', { issues: [], cause });
      }
      const out = await handler(identity, frame?.body);
      answer = { status: out.status ?? 200, body: out.body };
    } catch (err) {
      answer = errorAnswer(err, opts.logger, { method: 'NATS', url: msg.subject });
    }
    // the requester may have given up (its socket closed): nothing to answer then
    if (msg.reply) msg.respond(JSON.stringify(answer));
  };
  const subscription = nc.subscribe(`${prefix}.*`, {
    queue: opts.queue ?? DEVICE_RPC_QUEUE,
    callback: (err, msg) => {
      if (err) opts.logger.warn({ err }, 'device rpc subscription');
      else void handle(msg);
    },
  });
  return {
    subscription,
    async stop() {
      // drained: calls already received are answered before the service closes
      if (!subscription.isClosed()) await subscription.drain().catch(() => undefined);
    },
  };
}

/**
 * The gateway's side: sends a display's frame (its text, as received) with its signed identity header and resolves
 * the service's `{"status","body"}` text; no responder or no answer within the time-out is a 503 (send again later).
 */
export function deviceRpcClient(nc: NatsConnection, opts: { timeoutMs?: number; prefix?: string } = {}) {
  const timeout = opts.timeoutMs ?? DEVICE_RPC_TIMEOUT_MS;
  const prefix = opts.prefix ?? DEVICE_RPC_PREFIX;
  return async (type: string, identityHeader: string, frame: string | Uint8Array): Promise<string> => {
    const h = natsHeaders();
    h.set(IDENTITY_HEADER, identityHeader);
    try {
      const reply = await nc.request(`${prefix}.${type}`, frame, { timeout, headers: h });
      return reply.string();
    } catch (err) {
      if (err instanceof Error && /max(imum)? payload/i.test(err.message)) return tooLarge;
      return unavailable;
    }
  };
}
export type DeviceRpcClient = ReturnType<typeof deviceRpcClient>;

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
import etag from 'etag';
import type { pino } from 'pino';
import { z } from 'zod';
import { AppError, errorAnswer } from './errors';
import { IDENTITY_MAX_AGE_SECONDS, verifyAnyIdentityHeader } from './identity';

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
/**
 * The display's content reads (its playlist's items, a file's pages), answered by file-conversion:
 * `rpc.files.device.<type>` in the queue group `file-conversion`.
 */
export const DEVICE_READ_PREFIX = 'rpc.files.device';
export const DEVICE_READ_QUEUE = 'file-conversion';
/** How long the gateway waits for the service before answering 503 (the display sends again later). */
export const DEVICE_RPC_TIMEOUT_MS = 10_000;
/** How long the gateway gathers calls into one NATS request, and at most how many (a few ms: well under the 100 ms a
 * call may take, and at 10,000 displays, about 1,700 calls a second, several calls each). */
export const DEVICE_RPC_BATCH_MS = 4;
export const DEVICE_RPC_BATCH_MAX = 256;
/** The batch's subject `<prefix>.batch` (no call has that type). */
export const DEVICE_RPC_BATCH = 'batch';

export const deviceRpcSubject = (type: string) => `${DEVICE_RPC_PREFIX}.${type}`;

/** What a handler answers: the HTTP route's status (200 when absent) and JSON body, and a read's ETag. */
export interface DeviceRpcAnswer {
  status?: number;
  etag?: string;
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
  const verified = identityCache(opts.secret);
  /** One call: its answer's text (`{"status","body"}`), whatever happens. */
  const answerOf = async (type: string, header: string | undefined, data: Uint8Array): Promise<string> => {
    let answer: { status: number; etag?: string; body: unknown };
    try {
      const identity = verified(header);
      if (!identity) throw new AppError('UNAUTHORIZED');
      const handler = Object.hasOwn(opts.handlers, type) ? opts.handlers[type] : undefined;
      if (!handler) throw new AppError('NOT_FOUND');
      let frame: { body?: unknown } | null;
      try {
        frame = data.length > 0 ? (JSON.parse(utf8.decode(data)) as { body?: unknown } | null) : null;
      } catch (cause) {
        throw new AppError('VALIDATION', { issues: [], cause });
      }
      const out = await handler(identity, frame?.body);
      // status first: the gateway reads it at a fixed place (`{"status":NNN,`)
      answer =
        out.etag === undefined
          ? { status: out.status ?? 200, body: out.body }
          : { status: out.status ?? 200, etag: out.etag, body: out.body };
    } catch (err) {
      answer = errorAnswer(err, opts.logger, { method: 'NATS', url: `${prefix}.${type}` });
    }
    return JSON.stringify(answer);
  };
  const handle = async (msg: Msg) => {
    const type = msg.subject.slice(prefix.length + 1);
    let text: string | Uint8Array;
    if (type === DEVICE_RPC_BATCH) {
      // a batch: its calls run at once, their answers go back together in its order
      const calls = splitBatch(msg.data);
      text = calls
        ? joinAnswers(await Promise.all(calls.map((c) => answerOf(c.type, c.header, c.frame))))
        : JSON.stringify(errorAnswer(new AppError('VALIDATION', { issues: [] }), opts.logger));
    } else {
      text = await answerOf(type, msg.headers?.get(IDENTITY_HEADER) || undefined, msg.data);
    }
    // larger than a NATS message (publishing it would throw): a batch's answers together (many manifests after a
    // fleet-wide change), which the requester then sends again one by one, or one call's answer, refused as such
    const size = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    if (size > maxPayload(nc)) text = tooLarge;
    // the requester may have given up (its socket closed): nothing to answer then
    if (msg.reply) msg.respond(text);
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
 * Verified identity headers, remembered: the gateway reuses a display's header for 10 s, so its HMAC, base64 and
 * schema are checked once per header, not per call; the age limit is checked on every use.
 */
function identityCache(secret: string) {
  const known = new Map<string, DeviceIdentity & { iat: number }>();
  return (header: string | undefined): DeviceIdentity | undefined => {
    if (!header) return undefined;
    const now = Date.now();
    const hit = known.get(header);
    if (hit) {
      if (Math.abs(Math.floor(now / 1000) - hit.iat) <= IDENTITY_MAX_AGE_SECONDS) return hit;
      known.delete(header);
      return undefined;
    }
    const identity = verifyAnyIdentityHeader(header, secret, now);
    if (!identity || !('kind' in identity)) return undefined;
    // bounded: ten thousand displays renew their header every 10 s, an expired one is never asked for again
    if (known.size >= IDENTITY_CACHE_MAX) known.clear();
    known.set(header, identity);
    return identity;
  };
}
const IDENTITY_CACHE_MAX = 50_000;

const utf8 = new TextDecoder();
/** The largest message the server takes (its INFO), 1 MiB (NATS's default) before it is known. */
const maxPayload = (nc: NatsConnection) => nc.info?.max_payload ?? 1024 * 1024;
const NL = 10;

/**
 * A batch's text: per call `<type>\n<identity header>\n<frame bytes>\n<frame>`, back to back (the frames are passed
 * as they came: no escaping, no parse at the gateway).
 */
export function joinBatch(calls: ReadonlyArray<{ type: string; header: string; frame: Uint8Array }>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const c of calls) parts.push(Buffer.from(`${c.type}\n${c.header}\n${c.frame.length}\n`), c.frame);
  return Buffer.concat(parts);
}

export function splitBatch(data: Uint8Array): { type: string; header: string; frame: Uint8Array }[] | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
  const calls: { type: string; header: string; frame: Uint8Array }[] = [];
  let at = 0;
  while (at < buf.length) {
    const a = buf.indexOf(NL, at);
    const b = a < 0 ? -1 : buf.indexOf(NL, a + 1);
    const c = b < 0 ? -1 : buf.indexOf(NL, b + 1);
    if (c < 0) return undefined;
    const length = Number(buf.toString('latin1', b + 1, c));
    if (!Number.isSafeInteger(length) || length < 0 || c + 1 + length > buf.length) return undefined;
    calls.push({
      type: buf.toString('latin1', at, a),
      header: buf.toString('latin1', a + 1, b),
      frame: buf.subarray(c + 1, c + 1 + length),
    });
    at = c + 1 + length;
  }
  return calls;
}

/** The batch's answers, in its order: per answer `<bytes>\n<answer>`. */
function joinAnswers(answers: string[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const a of answers) {
    const bytes = Buffer.from(a);
    parts.push(Buffer.from(`${bytes.length}\n`), bytes);
  }
  return Buffer.concat(parts);
}

function splitAnswers(data: Uint8Array): string[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
  const out: string[] = [];
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(NL, at);
    const length = nl < 0 ? Number.NaN : Number(buf.toString('latin1', at, nl));
    if (!Number.isSafeInteger(length) || nl + 1 + length > buf.length) break;
    out.push(buf.toString('utf8', nl + 1, nl + 1 + length));
    at = nl + 1 + length;
  }
  return out;
}

/**
 * The gateway's side: sends a display's frame (its text, as received) with its signed identity header and resolves
 * the service's `{"status","body"}` text; no responder or no answer within the time-out is a 503 (send again later).
 */
export function deviceRpcClient(
  nc: NatsConnection,
  opts: { timeoutMs?: number; prefix?: string; batchMs?: number } = {},
) {
  const timeout = opts.timeoutMs ?? DEVICE_RPC_TIMEOUT_MS;
  const prefix = opts.prefix ?? DEVICE_RPC_PREFIX;
  const batchMs = opts.batchMs ?? DEVICE_RPC_BATCH_MS;
  const failed = (err: unknown) =>
    err instanceof Error && /max(imum)? payload/i.test(err.message) ? tooLarge : unavailable;
  const one = async (type: string, identityHeader: string, frame: string | Uint8Array): Promise<string> => {
    const h = natsHeaders();
    h.set(IDENTITY_HEADER, identityHeader);
    try {
      const reply = await nc.request(`${prefix}.${type}`, frame, { timeout, headers: h });
      return reply.string();
    } catch (err) {
      return failed(err);
    }
  };
  if (batchMs <= 0) return one;

  // Calls arriving within batchMs go as one NATS request (and their answers come back as one reply): NATS, nats.js
  // and the service's dispatch are paid per batch, not per display's frame.
  interface Pending {
    type: string;
    header: string;
    frame: Uint8Array;
    resolve: (answer: string) => void;
  }
  let queue: Pending[] = [];
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = () => Math.floor(maxPayload(nc) * 0.9);
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const calls = queue;
    queue = [];
    bytes = 0;
    if (calls.length === 0) return;
    if (calls.length === 1) {
      const c = calls[0] as Pending;
      return void one(c.type, c.header, c.frame).then(c.resolve);
    }
    nc.request(`${prefix}.${DEVICE_RPC_BATCH}`, joinBatch(calls), { timeout }).then(
      (reply) => {
        if (reply.data[0] === 0x7b && reply.string() === tooLarge) {
          // the answers did not fit in one message together: each call again alone
          for (const c of calls) void one(c.type, c.header, c.frame).then(c.resolve);
          return;
        }
        const answers = reply.data.length > 0 && reply.data[0] !== 0x7b ? splitAnswers(reply.data) : [];
        for (const [i, c] of calls.entries()) c.resolve(answers[i] ?? unavailable);
      },
      (err: unknown) => {
        const answer = failed(err);
        for (const c of calls) c.resolve(answer);
      },
    );
  };
  return (type: string, identityHeader: string, frame: string | Uint8Array): Promise<string> => {
    const data = typeof frame === 'string' ? Buffer.from(frame) : frame;
    const size = data.length + identityHeader.length + type.length + 16;
    // a frame too large for a batch goes alone (and is answered 413 by NATS's limit when larger than a message)
    if (size > limit()) return one(type, identityHeader, data);
    if (bytes + size > limit() || queue.length >= DEVICE_RPC_BATCH_MAX) flush();
    return new Promise<string>((resolve) => {
      queue.push({ type, header: identityHeader, frame: data, resolve });
      bytes += size;
      timer ??= setTimeout(flush, batchMs);
    });
  };
}
export type DeviceRpcClient = ReturnType<typeof deviceRpcClient>;

/**
 * A read's answer over the socket with the ETag its HTTP answer carries (Express's weak ETag of the same JSON text),
 * so a display holds one ETag per resource whichever way it read it: 304 with no body when `held` is current.
 */
export function conditionalAnswer(body: unknown, held: string | undefined): DeviceRpcAnswer {
  const tag = etag(JSON.stringify(body), { weak: true });
  return held === tag ? { status: 304, etag: tag, body: null } : { status: 200, etag: tag, body };
}

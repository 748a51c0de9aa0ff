import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type express from 'express';
import { pino } from 'pino';

export type Logger = pino.Logger;

/** JSON logs (one line per record) with secrets redacted; to stdout unless given a destination (tests). */
export function createLogger(
  name: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): pino.Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-pagecast-identity"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** LOG_SLOW_DEVICE_MS's default: a paired display's call that took longer than this is logged. */
export const DEFAULT_SLOW_DEVICE_MS = 1000;

export interface RequestLogOptions {
  /** The request's id (req.id, in its line and in the error handler's): called once, when the request arrives. */
  requestId(req: IncomingMessage, res: ServerResponse): string;
  /** Paths (req.url) never logged: probes and metrics. */
  quietPaths?: ReadonlySet<string>;
  /** Whether a paired display made the call; asked once the answer has ended (its identity is known by then). */
  isDeviceCall?(req: express.Request, res: express.Response): boolean;
  /** A display's call is logged only when it failed or took longer than this (ms; LOG_SLOW_DEVICE_MS). */
  slowDeviceMs?: number;
}

const serializers = { req: pino.stdSerializers.req, res: pino.stdSerializers.res, err: pino.stdSerializers.err };

/**
 * One line per request when its answer has ended, as pino-http wrote it (`req`, `res`, `responseTime` in ms,
 * "request completed", or "request errored" with `err` at 500 and above; an answer cut before its end also carries
 * `aborted`), at info, warn from 400, error from 500. A paired display's call (thousands a minute, and
 * their log lines were a tenth of the CPU per call) is written only when it failed (status 400 or more, or the
 * answer cut) or was slow (over `slowDeviceMs`): otherwise nothing is built at all, not even at debug. The request
 * metrics (http.ts) count every call, written or not. A display's event stream is not written when it ends (its end is
 * the display going away); a member's is.
 */
export function requestLog(logger: pino.Logger, opts: RequestLogOptions): express.RequestHandler {
  // The serialisers pino-http installed: the request and the answer as objects, applied only to a line written.
  const log = logger.child({}, { serializers });
  const slowMs = opts.slowDeviceMs ?? DEFAULT_SLOW_DEVICE_MS;
  const { quietPaths, isDeviceCall } = opts;
  return (req, res, next) => {
    req.id = opts.requestId(req, res);
    if (quietPaths?.has(req.url)) return next();
    const start = performance.now();
    res.once('close', () => {
      const ms = performance.now() - start;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      // a display's live stream (server-sent events) ends when the display goes away, after minutes or days: its end
      // is neither slow nor a fault (the stream's own metrics and the screen's status say when it is offline)
      const stream = String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
      if (status < 400 && (stream || (!aborted && ms <= slowMs)) && isDeviceCall?.(req, res)) return;
      const responseTime = Math.round(ms);
      const fields: Record<string, unknown> = { req, res, responseTime };
      if (aborted) fields.aborted = true;
      if (status >= 500) {
        fields.err = new Error(`failed with status code ${status}`);
        log.error(fields, 'request errored');
      } else if (status >= 400) log.warn(fields, 'request completed');
      else log.info(fields, 'request completed');
    });
    next();
  };
}

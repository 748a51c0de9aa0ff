import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Duplex, PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { errorMessagesJa } from '@pagecast/contracts';
import express from 'express';
import type { pino } from 'pino';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { AppError, errorHandler } from './errors';
import { requestLog } from './logger';

declare global {
  namespace Express {
    interface Request {
      /** The JSON body's bytes as received (set by the kit's JSON parser). */
      rawBody?: Buffer;
      /** The request's id: the caller's x-request-id when well-formed, else a new one (requestLog). */
      id?: string;
    }
  }
}

export const JSON_BODY_LIMIT = '1mb';
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const quietPaths = new Set(['/healthz', '/readyz', '/metrics']);

export interface HttpAppOptions {
  name: string;
  logger: pino.Logger;
  /** Dependencies reachable? /readyz answers 503 while false (or throwing). */
  ready?: () => Promise<boolean> | boolean;
  /** The service's OpenAPI document for GET /openapi.json. */
  openapi?: () => unknown;
  /** Parse JSON bodies (default true). A proxy turns it off so that bodies stream through untouched. */
  json?: boolean;
  /**
   * Serve /healthz, /readyz and /metrics on this app (default true). The gateway, the public door, turns it off and
   * serves `probes` on its own internal listener instead.
   */
  probes?: boolean;
  /** A request body that sends nothing for this long is answered 408 and its connection closed (default 10 s). */
  bodyIdleTimeoutMs?: number;
  /**
   * Whether a paired display made the call, once its answer has ended (default: the gateway's signed device identity,
   * req.device). Such a call is logged only when it failed or took longer than `slowDeviceMs` (logger.ts).
   */
  isDeviceCall?: (req: express.Request, res: express.Response) => boolean;
  /** LOG_SLOW_DEVICE_MS (default 1000) */
  slowDeviceMs?: number;
  /** The registry /metrics serves (default a new one): a service's runtime makes it first, for its own metrics. */
  registry?: Registry;
}

/** Node's own defaults (60 s for headers, 300 s per request) let a slow or lying client hold a connection long. */
export interface ServerTimeouts {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}
export const DEFAULT_TIMEOUTS = { headersTimeoutMs: 10_000, bodyIdleTimeoutMs: 10_000, requestTimeoutMs: 120_000 };
/**
 * How long an idle keep-alive connection stays open (Node's default: 5 s). A client that reuses a connection the
 * server is closing at that moment gets ECONNRESET: the gateway's proxy drops its idle connections well before
 * this (gateway/src/proxy.ts), so the server never closes one under it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * An HTTP server for `app` with header and whole-request time-outs (the body's idle time-out is createHttpApp's).
 * Node checks them only every connectionsCheckingInterval (30 s by default): 1 s here, or they would not hold.
 */
export function createServer(app: express.Express | http.RequestListener, t: ServerTimeouts = {}): Server {
  const headersTimeout = t.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersTimeoutMs;
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(t.requestTimeoutMs ?? DEFAULT_TIMEOUTS.requestTimeoutMs, headersTimeout),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    app,
  );
  return server;
}

/**
 * The request body as the client meant it, for handlers that stream it themselves (uploads): decoded per its
 * Content-Encoding like express.json does for JSON. An unknown encoding throws 415 UNSUPPORTED_MEDIA_TYPE; bytes that
 * are not what the encoding says make the returned stream fail with 400 MALFORMED_REQUEST.
 */
export function decodedBody(req: IncomingMessage): Readable {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === '') return req;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const out = new PassThrough();
  decoder.on('error', (err) => out.destroy(new AppError('MALFORMED_REQUEST', { cause: err })));
  req.on('error', (err) => out.destroy(err));
  return req.pipe(decoder).pipe(out);
}

/** A path whose %-escapes do not decode (`/media/%ff`, `/x/%E0%A4%A`) is malformed, whatever route it was for. */
const wellEncodedPath: express.RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    next(new AppError('MALFORMED_REQUEST'));
    return;
  }
  next();
};

function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A body that stops arriving (a Content-Length larger than what was sent) must not hold the connection: while the
 * body is incomplete, `ms` without a byte from the client answers 408 REQUEST_TIMEOUT and closes. Watched through the
 * socket's byte count, not a socket time-out: Node destroys a timed-out socket nobody claims, which would also cut
 * slow handlers, and a socket time-out would replace the server's keep-alive one.
 */
function bodyIdleTimeout(ms: number): express.RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const socket = req.socket;
    let seen = socket.bytesRead;
    let lastByteAt = Date.now();
    const timer = setInterval(
      () => {
        if (req.complete || res.writableEnded || socket.destroyed) return stop();
        if (socket.bytesRead !== seen) {
          seen = socket.bytesRead;
          lastByteAt = Date.now();
          return;
        }
        if (Date.now() - lastByteAt < ms) return;
        stop();
        const close = () => {
          socket.end();
          setTimeout(() => socket.destroy(), 1000).unref();
        };
        if (res.headersSent) return close();
        res.once('finish', close);
        res.status(408).set({ Connection: 'close', 'Cache-Control': 'no-store' }).json({
          code: 'REQUEST_TIMEOUT',
          message: errorMessagesJa.REQUEST_TIMEOUT,
        });
      },
      Math.max(25, Math.min(1000, Math.floor(ms / 4))),
    );
    timer.unref();
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    res.once('close', stop);
    next();
  };
}

/**
 * An express app with the plumbing every service shares. Add routers, then call finish() to add the 404 and the
 * one error handler (they must come last).
 */
export function createHttpApp(opts: HttpAppOptions): {
  app: express.Express;
  registry: Registry;
  /** /healthz, /readyz and /metrics: for probes and the scraper, not for the public */
  probes: express.Router;
  finish(): void;
} {
  const { logger } = opts;
  const app = express();
  app.disable('x-powered-by');

  // One registry per app: several apps can live in one process (tests) without duplicate metric names.
  const registry = opts.registry ?? new Registry();
  registry.setDefaultLabels({ service: opts.name });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.use(
    requestLog(logger, {
      // Keep the caller's id (the gateway's) so one request can be followed across services.
      requestId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      quietPaths,
      isDeviceCall: opts.isDeviceCall ?? ((req) => req.device !== undefined),
      slowDeviceMs: opts.slowDeviceMs,
    }),
  );

  app.use(bodyIdleTimeout(opts.bodyIdleTimeoutMs ?? DEFAULT_TIMEOUTS.bodyIdleTimeoutMs));
  app.use(wellEncodedPath);

  app.use((req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern, not the raw URL: one series per route, not per id.
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status_code: String(res.statusCode) });
    });
    next();
  });

  if (opts.json !== false) {
    // The exact bytes stay on req.rawBody for a signature check (a card provider's webhook signs the raw body).
    app.use(
      express.json({
        limit: JSON_BODY_LIMIT,
        verify: (req, _res, buf) => {
          (req as express.Request).rawBody = buf;
        },
      }),
    );
  }

  const probes = express.Router();
  probes.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  probes.get('/readyz', async (_req, res) => {
    let ok = false;
    try {
      ok = opts.ready ? await opts.ready() : true;
    } catch (err) {
      logger.warn({ err }, 'readiness check failed');
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready' });
  });

  probes.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  if (opts.probes !== false) app.use(probes);

  // The document never changes while the process runs: build it once, on first request.
  let openapiJson: string | undefined;
  app.get('/openapi.json', (_req, res, next) => {
    if (!opts.openapi) {
      next(new AppError('NOT_FOUND'));
      return;
    }
    openapiJson ??= JSON.stringify(opts.openapi());
    res.type('application/json').send(openapiJson);
  });

  return {
    app,
    registry,
    probes,
    finish() {
      app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
      app.use(errorHandler(logger));
    },
  };
}

/** Node's own listen backlog: connections the kernel holds for a server before it accepts them. */
export const DEFAULT_LISTEN_BACKLOG = 511;

export interface Listening {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0 = any free port) and resolves once bound; close() stops accepting and ends idle sockets
 * (or every socket with `endAllOnClose`: the gateway's live streams never become idle).
 * Loopback unless told otherwise: a service is reached through the gateway, never directly from outside.
 */
export function listen(
  app: express.Express | http.RequestListener,
  port: number,
  host = '127.0.0.1',
  timeouts: ServerTimeouts = {},
  opts: {
    endAllOnClose?: boolean;
    /** WebSocket upgrades (the gateway's display sockets); without it an upgrade request gets no answer */
    onUpgrade?: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
    /** connections held before they are accepted (the kernel caps it at net.core.somaxconn) */
    backlog?: number;
  } = {},
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createServer(app, timeouts);
    if (opts.onUpgrade) server.on('upgrade', opts.onUpgrade);
    server.listen({ port, host, backlog: opts.backlog ?? DEFAULT_LISTEN_BACKLOG }, () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((e) => (e ? fail(e) : done()));
            if (opts.endAllOnClose) server.closeAllConnections();
            else server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { AppError, errorHandler } from './errors';

declare global {
  namespace Express {
    interface Request {
      /** The JSON body's bytes as received (set by the kit's JSON parser). */
      rawBody?: Buffer;
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
}

/**
 * An express app with the plumbing every service shares. Add routers, then call finish() to add the 404 and the
 * one error handler (they must come last).
 */
export function createHttpApp(opts: HttpAppOptions): { app: express.Express; registry: Registry; finish(): void } {
  const { logger } = opts;
  const app = express();
  app.disable('x-powered-by');

  // One registry per app: several apps can live in one process (tests) without duplicate metric names.
  const registry = new Registry();
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
    pinoHttp({
      logger,
      // Keep the caller's id (the gateway's) so one request can be followed across services.
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => quietPaths.has(req.url ?? '') },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    }),
  );

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

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    let ok = false;
    try {
      ok = opts.ready ? await opts.ready() : true;
    } catch (err) {
      logger.warn({ err }, 'readiness check failed');
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready' });
  });

  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });

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
    finish() {
      app.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
      app.use(errorHandler(logger));
    },
  };
}

export interface Listening {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Listens on `port` (0 = any free port) and resolves once bound; close() stops accepting and ends idle sockets. */
export function listen(app: express.Express, port: number, host = '0.0.0.0'): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => {
      if (err) {
        reject(err);
        return;
      }
      const actual = (server.address() as AddressInfo).port;
      resolve({
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((e) => (e ? fail(e) : done()));
            server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

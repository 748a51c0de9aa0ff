import type { ServiceName } from '@pagecast/contracts';
import { buildOpenApiDocument } from '@pagecast/contracts/openapi';
import type { RequestHandler } from 'express';
import type mongoose from 'mongoose';
import { Registry } from 'prom-client';
import { type BaseConfig, ConfigError, databaseNameOf } from './config';
import { type Clock, serviceClock } from './failpoints';
import { createHttpApp, listen } from './http';
import { clientAddressMiddleware, identityMiddleware } from './identity';
import { createLogger, type Logger } from './logger';
import { connectMongo, mongoReady } from './mongo';
import { connectNats, ensureStreams, type Nats, natsReady, permanentNatsError } from './nats';
import { createOutbox, type Outbox } from './outbox';
import { createS3, permanentS3Error, type S3 } from './s3';
import { startRetry, untilReady } from './start-retry';

/** Something to undo on close; a rejection is logged, and the rest still close. */
export type Closer = () => Promise<unknown>;
/** Registers a closer; closers run newest first. */
export type OnClose = (close: Closer) => void;

/** The connections every service opens, in the order the runtime opens them. */
export interface RuntimeContext<C extends BaseConfig = BaseConfig> {
  config: C;
  logger: Logger;
  conn: mongoose.Connection;
  nats: Nats;
  outbox: Outbox;
  /** this service's database name (durable consumer names derive from it) */
  dbName: string;
  /** the service's one clock (failpoints.ts): real time, or a test's when `<service>.clock` is on */
  clock: Clock;
  /** what GET /metrics serves: a service adds its own gauges and counters here */
  metrics: Registry;
}

/** The runtime context of a service that stores objects: S3 is connected and part of readiness. */
export type RuntimeContextWithS3<C extends BaseConfig = BaseConfig> = RuntimeContext<C> & { s3: S3 };

export interface RunningService<Ctx> {
  port: number;
  url: string;
  context: Ctx;
  /**
   * Stops everything, newest first. dropDatabase (tests): the service's database is dropped after every writer of it
   * (consumers, jobs, the outbox relay) has stopped and before its connection closes, so no write lands in (or
   * fails on) a dropped database.
   */
  close(opts?: { dropDatabase?: boolean }): Promise<void>;
}

export interface ServiceRuntimeOptions<C extends BaseConfig, S extends boolean, Ctx> {
  name: ServiceName;
  config: C;
  /** default: a logger named after the service at config.LOG_LEVEL */
  logger?: Logger;
  /** the service's own database; config.MONGO_DB overrides it (tests) */
  databaseName: string;
  /** connect S3 (keys required) and ensure the bucket; /readyz then also checks it */
  s3?: S;
  /** the clock (default: the service's own, adjustable when its clock failpoint is on); component tests pass one */
  clock?: Clock;
  /** Builds the service's context from the connections: repositories and its own resources (closers via onClose). */
  context(base: S extends true ? RuntimeContextWithS3<C> : RuntimeContext<C>, onClose: OnClose): Promise<Ctx> | Ctx;
  /** Starts consumers and workers (closers via onClose) and returns the routers to serve behind the identity check. */
  mount(context: Ctx, onClose: OnClose): Promise<RequestHandler[]> | RequestHandler[];
}

/**
 * The start-up every service shares: mongo, nats (+ streams), the outbox relay, optionally S3, then the service's
 * context, consumers and routers, then HTTP on config.PORT (0 = any free port) with health, metrics and OpenAPI.
 * close() undoes what was opened, newest first; a failed start closes what it had opened and rethrows.
 */
export async function startServiceRuntime<C extends BaseConfig, Ctx, S extends boolean = false>(
  opts: ServiceRuntimeOptions<C, S, Ctx>,
): Promise<RunningService<Ctx>> {
  const { name, config } = opts;
  const logger = opts.logger ?? createLogger(name, config.LOG_LEVEL);
  const closers: Closer[] = [];
  const onClose: OnClose = (close) => {
    closers.push(close);
  };
  let dropOnClose = false;
  const closeAll = async (o: { dropDatabase?: boolean } = {}) => {
    dropOnClose = o.dropDatabase === true;
    for (const close of closers.splice(0).reverse()) {
      await close().catch((err: unknown) => logger.warn({ err }, 'error while closing'));
    }
  };
  try {
    // servers that are not there yet (or not answering yet) are waited for, up to START_TIMEOUT_MS in all
    const retry = startRetry(logger, config.START_TIMEOUT_MS);
    const dbName = databaseNameOf(config, opts.databaseName);
    const conn = await connectMongo(config.MONGO_URL, dbName, logger, {
      maxPoolSize: config.MONGO_MAX_POOL_SIZE,
      retry,
    });
    // registered first, so it runs last: every writer is stopped before the drop a test may ask for
    onClose(async () => {
      try {
        if (dropOnClose) await conn.dropDatabase();
      } finally {
        await conn.close();
      }
    });
    const nats = await connectNats(config.NATS_URL, logger, name, { replicas: config.NATS_REPLICAS, retry });
    onClose(() => nats.nc.drain());
    await untilReady('nats streams', () => ensureStreams(nats.jsm), retry, permanentNatsError);
    const outbox = createOutbox(conn, nats.js, logger);
    outbox.start();
    onClose(() => outbox.stop());

    const clock = opts.clock ?? serviceClock(name, config.PAGECAST_FAILPOINTS);
    const metrics = new Registry();
    const base: RuntimeContext<C> & { s3?: S3 } = { config, logger, conn, nats, outbox, dbName, clock, metrics };
    if (opts.s3) {
      const s3 = createS3(s3Config(config));
      base.s3 = s3;
      await untilReady('s3', () => s3.ensureBucket(), retry, permanentS3Error);
    }
    const { s3 } = base;
    const context = await opts.context(base as Parameters<typeof opts.context>[0], onClose);
    const routers = await opts.mount(context, onClose);

    let openapi: unknown;
    const { app, finish } = createHttpApp({
      name,
      logger,
      bodyIdleTimeoutMs: config.BODY_IDLE_TIMEOUT_MS,
      slowDeviceMs: config.LOG_SLOW_DEVICE_MS,
      registry: metrics,
      ready: async () => natsReady(nats.nc) && (await mongoReady(conn)) && (s3 ? await s3.ready() : true),
      openapi: () => {
        openapi ??= buildOpenApiDocument(name);
        return openapi;
      },
    });
    // No 'trust proxy': the caller's address is the one the gateway signs (req.clientAddress), whatever hops the
    // request crossed; a header a client or a hop wrote counts for nothing.
    app.use(clientAddressMiddleware(config.INTERNAL_SECRET));
    app.use(identityMiddleware(config.INTERNAL_SECRET));
    // A service's answers depend on the member (or may): no cache may keep or share them. A route whose answer is
    // the same for everyone and worth caching (jwks, page images) sets its own Cache-Control.
    app.use(noStore);
    for (const router of routers) app.use(router);
    finish();

    const http = await listen(app, config.PORT, config.HOST, {
      headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    });
    onClose(() => http.close());
    logger.info({ host: config.HOST, port: http.port }, `${name} listening`);
    return { port: http.port, url: http.url, context, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

function s3Config(config: BaseConfig) {
  const { S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey } = config;
  // A service's config schema makes the keys required; this guards a service that forgot to.
  if (!accessKey || !secretKey) {
    throw new ConfigError('Invalid configuration (environment variables):\n  S3_ACCESS_KEY/S3_SECRET_KEY: is required');
  }
  return { endpoint: config.S3_ENDPOINT, accessKey, secretKey, bucket: config.S3_BUCKET };
}

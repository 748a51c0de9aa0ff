import { buildOpenApiDocument } from '@pagecast/contracts/openapi';
import {
  connectMongo,
  connectNats,
  createHttpApp,
  createLogger,
  createOutbox,
  createS3,
  type S3,
  ensureStreams,
  identityMiddleware,
  type Logger,
  listen,
  mongoReady,
  type Nats,
  natsReady,
  type Outbox,
} from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import type { Config } from './config';
import { createRepositories, ensureIndexes, type Repositories } from './data';
import { startConsumers } from './events';
import { createRouter } from './http';
import { LocalOriginals, loadServiceSettings, type ServiceSettings, startConversionWorkers } from './workers';

export const SERVICE_NAME = 'file-conversion';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_file_conversion';

/** What routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext {
  config: Config;
  logger: Logger;
  conn: mongoose.Connection;
  nats: Nats;
  outbox: Outbox;
  s3: S3;
  data: Repositories;
  settings: ServiceSettings;
  /** uploads still on this machine, for this process's workers (undefined when it runs no workers) */
  localOriginals: LocalOriginals | undefined;
}

export interface Server {
  port: number;
  url: string;
  context: ServiceContext;
  close(): Promise<void>;
}

/**
 * Connects to the servers, starts the outbox relay, the consumers and HTTP on config.PORT (0 = any free port).
 * Used by main.ts and by the component tests, which run the real service in-process.
 */
export async function createServer(
  config: Config,
  opts: { logger?: Logger; settings?: Partial<ServiceSettings> } = {},
): Promise<Server> {
  const logger = opts.logger ?? createLogger(SERVICE_NAME, config.LOG_LEVEL);
  // CONVERSION_ROLE and the worker settings: from the environment unless the caller (a test) gives them.
  const settings: ServiceSettings = { ...loadServiceSettings(), ...opts.settings };
  const api = settings.CONVERSION_ROLE !== 'worker';
  const workers = settings.CONVERSION_ROLE !== 'api';
  // Undo what was opened, newest first, on close or when a later step of the start fails.
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((err: unknown) => logger.warn({ err }, 'error while closing'));
    }
  };
  try {
    const conn = await connectMongo(config.MONGO_URL, config.MONGO_DB ?? DATABASE_NAME, logger);
    closers.push(() => conn.close());
    const nats = await connectNats(config.NATS_URL, logger, SERVICE_NAME);
    closers.push(() => nats.nc.drain());
    await ensureStreams(nats.jsm);
    const outbox = createOutbox(conn, nats.js, logger);
    outbox.start();
    closers.push(() => outbox.stop());

    const s3 = createS3({
      endpoint: config.S3_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      bucket: config.S3_BUCKET,
    });
    await s3.ensureBucket();

    const data = createRepositories(conn, s3);
    await ensureIndexes(data);
    const localOriginals = workers ? new LocalOriginals() : undefined;
    if (localOriginals) closers.push(async () => localOriginals.clear());
    const context: ServiceContext = { config, logger, conn, nats, outbox, s3, data, settings, localOriginals };
    if (api) {
      const consumers = await startConsumers(context);
      closers.push(() => Promise.all(consumers.map((c) => c.stop())));
    }
    if (workers) {
      const running = await startConversionWorkers({ ...context, localOriginals });
      closers.push(() => running.stop());
    }

    let openapi: unknown;
    const { app, finish } = createHttpApp({
      name: SERVICE_NAME,
      logger,
      ready: async () => natsReady(nats.nc) && (await mongoReady(conn)) && (await s3.ready()),
      openapi: () => {
        openapi ??= buildOpenApiDocument(SERVICE_NAME);
        return openapi;
      },
    });
    app.use(identityMiddleware(config.INTERNAL_SECRET));
    // A worker-only process answers health and metrics, not the API.
    if (api) app.use(createRouter(context));
    finish();

    const http = await listen(app, config.PORT);
    closers.push(() => http.close());
    logger.info({ port: http.port }, `${SERVICE_NAME} listening`);
    return { port: http.port, url: http.url, context, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

import { buildOpenApiDocument } from '@pagecast/contracts/openapi';
import {
  connectMongo,
  connectNats,
  createHttpApp,
  createLogger,
  createOutbox,
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
import { createRepositories, type Repositories } from './data';
import { startConsumers } from './events';
import { createRouter } from './http';

export const SERVICE_NAME = 'billing';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_billing';

/** What routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext {
  config: Config;
  logger: Logger;
  conn: mongoose.Connection;
  nats: Nats;
  outbox: Outbox;
  data: Repositories;
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
export async function createServer(config: Config, opts: { logger?: Logger } = {}): Promise<Server> {
  const logger = opts.logger ?? createLogger(SERVICE_NAME, config.LOG_LEVEL);
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

    const data = createRepositories(conn);
    const context: ServiceContext = { config, logger, conn, nats, outbox, data };
    const consumers = await startConsumers(context);
    closers.push(() => Promise.all(consumers.map((c) => c.stop())));

    let openapi: unknown;
    const { app, finish } = createHttpApp({
      name: SERVICE_NAME,
      logger,
      ready: async () => natsReady(nats.nc) && (await mongoReady(conn)),
      openapi: () => {
        openapi ??= buildOpenApiDocument(SERVICE_NAME);
        return openapi;
      },
    });
    app.use(identityMiddleware(config.INTERNAL_SECRET));
    app.use(createRouter(context));
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

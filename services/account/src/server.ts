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
import { createMailer, createRepositories, type Mailer, type Repositories, startSweeper } from './data';
import { SWEEP_INTERVAL_MS } from './domain';
import { startConsumers } from './events';
import { type Background, createBackground, createRouter, createSessionTokens, type SessionTokens } from './http';

export const SERVICE_NAME = 'account';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_account';

/** What routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext {
  config: Config;
  logger: Logger;
  conn: mongoose.Connection;
  nats: Nats;
  outbox: Outbox;
  data: Repositories;
  /** this service's database name (durable consumer names derive from it) */
  dbName: string;
  mailer: Mailer;
  /** session JWT signing and the JWKS */
  tokens: SessionTokens;
  /** work after the answer (mail delivery); awaited on close */
  background: Background;
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
    const dbName = config.MONGO_DB ?? DATABASE_NAME;
    const conn = await connectMongo(config.MONGO_URL, dbName, logger);
    closers.push(() => conn.close());
    const nats = await connectNats(config.NATS_URL, logger, SERVICE_NAME);
    closers.push(() => nats.nc.drain());
    await ensureStreams(nats.jsm);
    const outbox = createOutbox(conn, nats.js, logger);
    outbox.start();
    closers.push(() => outbox.stop());

    const data = createRepositories(conn);
    await data.init();
    const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
    closers.push(async () => mailer.close());
    const background = createBackground(logger);
    closers.push(() => background.idle());
    const tokens = createSessionTokens(data.keys);
    await tokens.jwks(); // the first key pair exists before the first request
    const sweeper = startSweeper(data, logger, SWEEP_INTERVAL_MS);
    closers.push(() => sweeper.stop());
    const context: ServiceContext = { config, logger, conn, nats, outbox, data, dbName, mailer, tokens, background };
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
    // Only the gateway reaches account: its X-Forwarded-For gives the client's address (login rate limits).
    app.set('trust proxy', 'loopback, linklocal, uniquelocal');
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

import mongoose from 'mongoose';
import type { pino } from 'pino';
import { countDbCommands } from './db-command-stats';
import { type StartRetry, untilReady } from './start-retry';

/**
 * One connection per service to its own database. Plain MongoDB features only: FerretDB (local and tests) has no
 * transactions, change streams, $lookup, TTL indexes or collation. With `retry` (a start-up), a database that does
 * not answer yet is waited for (start-retry.ts): each try is a new connection, the failed one closed.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  logger: pino.Logger,
  opts: { maxPoolSize?: number; retry?: StartRetry } = {},
): Promise<mongoose.Connection> {
  return untilReady('mongo', () => connectOnce(url, dbName, logger, opts), opts.retry, permanentMongoError);
}

/** A refused login or a malformed URL: waiting does not mend them. */
const permanentMongoError = (err: unknown) =>
  (err as { code?: unknown })?.code === 18 || (err as Error)?.name === 'MongoParseError';

async function connectOnce(
  url: string,
  dbName: string,
  logger: pino.Logger,
  opts: { maxPoolSize?: number },
): Promise<mongoose.Connection> {
  const conn = mongoose.createConnection(url, {
    dbName,
    // At most this many operations at once (the driver's default is 100). FerretDB's SQLite backend hung for good,
    // for every client of the database, when a burst (200 displays at once) filled its pool of about 100
    // connections (goroutine dump: 100 open queries, 101 waiting for a connection). Operations beyond the limit
    // wait in the driver instead, and stay short.
    maxPoolSize: opts.maxPoolSize ?? 20,
    // Fail a start (or a readiness probe) quickly instead of hanging for the driver's default 30 s.
    serverSelectionTimeoutMS: 5000,
    connectTimeoutMS: 5000,
    ...(process.env.PAGECAST_DB_COMMAND_STATS ? { monitorCommands: true } : {}),
  });
  if (process.env.PAGECAST_DB_COMMAND_STATS) countDbCommands(conn, dbName, process.env.PAGECAST_DB_COMMAND_STATS);
  // 'disconnecting' only happens on our own close(): that disconnect is expected, not worth a warning.
  let closing = false;
  conn.on('disconnecting', () => {
    closing = true;
  });
  conn.on('disconnected', () => {
    if (closing) logger.info({ dbName }, 'mongo closed');
    else logger.warn({ dbName }, 'mongo disconnected');
  });
  conn.on('reconnected', () => logger.info({ dbName }, 'mongo reconnected'));
  try {
    await conn.asPromise();
  } catch (err) {
    await conn.close().catch(() => undefined);
    throw err;
  }
  logger.info({ dbName }, 'mongo connected');
  return conn;
}

/** Readiness: the connection is open and the server answers a ping. */
export async function mongoReady(conn: mongoose.Connection): Promise<boolean> {
  if (conn.readyState !== mongoose.ConnectionStates.connected || !conn.db) return false;
  try {
    await conn.db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

import mongoose from 'mongoose';
import type { pino } from 'pino';

/**
 * One connection per service to its own database. Plain MongoDB features only: FerretDB (local and tests) has no
 * transactions, change streams, $lookup, TTL indexes or collation.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  logger: pino.Logger,
  opts: { maxPoolSize?: number } = {},
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
  });
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
  await conn.asPromise();
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

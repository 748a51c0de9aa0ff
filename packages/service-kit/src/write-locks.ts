import { randomUUID } from 'node:crypto';
import type mongoose from 'mongoose';
import { AppError, isDuplicateKeyError } from './errors';

/**
 * Short write locks, one per document id, for documents that more than one writer changes.
 *
 * FerretDB on SQLite runs every update as read-then-write without a transaction, so two `$set`s of DIFFERENT fields
 * of one document, run together, can write one of them back to its old value (measured: 153 of 200 pairs of a title
 * `$set` and a progress `$set` lost one). MongoDB applies each update atomically and needs none of this, but the same
 * code runs on both. A lock is an insert under the document's id, the one write FerretDB makes atomic, removed when the
 * write is done; callers of one process wait in line per id rather than polling each other.
 */
export interface WriteLocks {
  /** Runs `write` while holding `id`'s lock; throws SERVICE_UNAVAILABLE (503) when it stays busy past the wait. */
  withLock<T>(id: string, write: () => Promise<T>): Promise<T>;
}

export interface WriteLockOptions {
  /** A lock older than this was left by a crashed writer and may be taken over (real time). */
  staleMs?: number;
  /** How long a writer waits for a busy id before SERVICE_UNAVAILABLE. */
  waitMs?: number;
}

interface LockRecord {
  _id: string;
  token: string;
  at: Date;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Locks in `collection` of this service's database. */
export function createWriteLocks(
  conn: mongoose.Connection,
  collection: string,
  { staleMs = 10_000, waitMs = 5_000 }: WriteLockOptions = {},
): WriteLocks {
  const locks = conn.collection<LockRecord>(collection);
  /** This process's writers, in line per id (the tail of each line). */
  const lines = new Map<string, Promise<unknown>>();

  const take = async <T>(id: string, write: () => Promise<T>): Promise<T> => {
    const token = randomUUID();
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        // real time, as the staleness check below: a lock's age measures a writer's real wait, not business time
        await locks.insertOne({ _id: id, token, at: new Date() });
        break;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const held = await locks.findOne({ _id: id });
        if (held && Date.now() - new Date(held.at).getTime() > staleMs) {
          await locks.deleteOne({ _id: id, token: held.token });
          continue;
        }
        if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', { details: { lock: collection, id } });
        await sleep(5 + Math.random() * 20);
      }
    }
    try {
      return await write();
    } finally {
      await locks.deleteOne({ _id: id, token }).catch(() => undefined);
    }
  };

  return {
    withLock(id, write) {
      const run = (lines.get(id) ?? Promise.resolve()).then(
        () => take(id, write),
        () => take(id, write),
      );
      const tail = run.catch(() => {});
      lines.set(id, tail);
      void tail.then(() => {
        if (lines.get(id) === tail) lines.delete(id);
      });
      return run;
    },
  };
}

import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { connectMongo } from '../src/mongo';
import { testEnv, uniqueName } from '../src/testing';
import { createWriteLocks } from '../src/write-locks';
import { captureLogger } from './helpers';

const env = testEnv();
const { logger } = captureLogger();
let conn: mongoose.Connection;

interface Doc {
  _id: string;
  title: string;
  progress: number;
}

beforeAll(async () => {
  conn = await connectMongo(env.MONGO_URL, uniqueName('kit_write_locks'), logger);
});
afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

/** Two writers change different fields of each of `n` documents at the same time; how many documents lost one. */
async function lostUpdates(n: number, wrap: (id: string, write: () => Promise<unknown>) => Promise<unknown>) {
  const docs = conn.collection<Doc>(uniqueName('docs'));
  await docs.insertMany(Array.from({ length: n }, (_, i) => ({ _id: `d${i}`, title: 'old', progress: 0 })));
  await Promise.all(
    Array.from({ length: n }, (_, i) => [
      wrap(`d${i}`, () => docs.updateOne({ _id: `d${i}` }, { $set: { title: 'new' } })),
      wrap(`d${i}`, () => docs.updateOne({ _id: `d${i}` }, { $set: { progress: 1 } })),
    ]).flat(),
  );
  const after = await docs.find({}).toArray();
  return after.filter((d) => d.title !== 'new' || d.progress !== 1).length;
}

describe('write locks (on a real MongoDB-protocol server)', () => {
  it('keeps both of two writers of different fields of one document, from two instances', async () => {
    // two sets of locks on one collection: two processes of a service
    const a = createWriteLocks(conn, 'locks_two');
    const b = createWriteLocks(conn, 'locks_two');
    let turn = 0;
    const lost = await lostUpdates(60, (id, write) => (turn++ % 2 ? a : b).withLock(id, write));
    expect(lost).toBe(0);
    expect(await conn.collection('locks_two').countDocuments()).toBe(0); // each released after its write
  });

  it('lets one writer at a time hold an id, in line within a process', async () => {
    const locks = createWriteLocks(conn, 'locks_order');
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        locks.withLock('one', async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('releases the lock when the write throws', async () => {
    const locks = createWriteLocks(conn, 'locks_throw');
    await expect(locks.withLock('x', () => Promise.reject(new Error('write failed')))).rejects.toThrow('write failed');
    expect(await locks.withLock('x', async () => 'next')).toBe('next');
  });

  it('answers SERVICE_UNAVAILABLE when the id stays busy past the wait, and takes over a lock left by a crash', async () => {
    const held = conn.collection<{ _id: string; token: string; at: Date }>('locks_busy');
    await held.insertOne({ _id: 'busy', token: 'another process', at: new Date() });
    const locks = createWriteLocks(conn, 'locks_busy', { waitMs: 200, staleMs: 60_000 });
    const err = await locks.withLock('busy', async () => 'never').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('SERVICE_UNAVAILABLE');
    // the same lock, now older than the staleness limit: its holder crashed
    const taker = createWriteLocks(conn, 'locks_busy', { waitMs: 1_000, staleMs: 100 });
    await new Promise((r) => setTimeout(r, 150));
    expect(await taker.withLock('busy', async () => 'taken')).toBe('taken');
  });
});

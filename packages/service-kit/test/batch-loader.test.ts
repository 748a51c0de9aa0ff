import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { createBatchLoader, readByIds } from '../src/batch-loader';
import { testEnv, uniqueName } from '../src/testing';

const env = testEnv();

describe('batch loader', () => {
  it('reads a lone key at once, and the keys asked during a read together in the next one', async () => {
    const batches: string[][] = [];
    const loader = createBatchLoader<string, string>(async (keys) => {
      batches.push(keys);
      await new Promise((r) => setTimeout(r, 20));
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.toUpperCase()]));
    });
    const first = loader.load('a');
    await new Promise((r) => setImmediate(r));
    const rest = Promise.all([loader.load('b'), loader.load('c'), loader.load('b'), loader.load('missing')]);
    expect(await first).toBe('A');
    expect(await rest).toEqual(['B', 'C', 'B', undefined]);
    expect(batches).toEqual([['a'], ['b', 'c', 'missing']]);
    expect(loader.reads).toBe(2);
  });

  it('reads together the keys asked in separate callbacks of one turn of the event loop', async () => {
    // As requests that arrived together are handled: one I/O callback each, with the microtasks run between them.
    const batches: string[][] = [];
    const loader = createBatchLoader<string, string>(async (keys) => {
      batches.push(keys);
      return new Map(keys.map((k) => [k, k]));
    });
    const answers = await new Promise<Array<string | undefined>>((resolve) => {
      const got: Array<Promise<string | undefined>> = [];
      setImmediate(() => got.push(loader.load('a')));
      setImmediate(() => got.push(loader.load('b')));
      setImmediate(() => resolve(Promise.all(got)));
    });
    expect(answers).toEqual(['a', 'b']);
    expect(batches).toEqual([['a', 'b']]);
  });

  it('a failed read rejects its own callers only', async () => {
    let calls = 0;
    const loader = createBatchLoader<string, number>(async (keys) => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      if (calls === 1) throw new Error('database away');
      return new Map(keys.map((k) => [k, k.length]));
    });
    const failed = loader.load('x');
    await new Promise((r) => setImmediate(r));
    const later = loader.load('yy');
    await expect(failed).rejects.toThrow('database away');
    expect(await later).toBe(2);
  });

  it('splits a burst into reads of at most maxBatch keys', async () => {
    const sizes: number[] = [];
    const loader = createBatchLoader<number, number>(
      async (keys) => {
        sizes.push(keys.length);
        return new Map(keys.map((k) => [k, k * 2]));
      },
      { maxBatch: 7 },
    );
    const got = await Promise.all(Array.from({ length: 30 }, (_, i) => loader.load(i)));
    expect(got).toEqual(Array.from({ length: 30 }, (_, i) => i * 2));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
  });

  it('readByIds reads a batch with one command, one id with findOne, and leaves out the ids not found', async () => {
    // The driver reports each command it sends (monitorCommands): what the database is asked, not what it answers.
    const conn = await mongoose
      .createConnection(env.MONGO_URL, { dbName: uniqueName('kit_by_ids'), monitorCommands: true })
      .asPromise();
    try {
      const docs = conn.collection<{ _id: string; n: number }>('docs');
      await docs.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: `d${n}`, n })));
      const commands: Array<{ name: string; filter: unknown }> = [];
      const client = conn.getClient();
      const seen = (e: { commandName: string; command: Record<string, unknown> }) => {
        if (e.commandName === 'find') commands.push({ name: e.commandName, filter: e.command.filter });
      };
      client.on('commandStarted', seen);
      const read = readByIds<{ _id: string; n: number }>(docs);
      const many = await read(['d3', 'gone', 'd17', 'd3']);
      expect([...many.entries()].sort()).toEqual([
        ['d17', { _id: 'd17', n: 17 }],
        ['d3', { _id: 'd3', n: 3 }],
      ]);
      expect([...(await read(['d5'])).values()]).toEqual([{ _id: 'd5', n: 5 }]);
      expect((await read(['gone'])).size).toBe(0);
      client.off('commandStarted', seen);
      expect(commands).toEqual([
        { name: 'find', filter: { _id: { $in: ['d3', 'gone', 'd17', 'd3'] } } },
        { name: 'find', filter: { _id: 'd5' } },
        { name: 'find', filter: { _id: 'gone' } },
      ]);
    } finally {
      await conn.dropDatabase();
      await conn.close();
    }
  });
});

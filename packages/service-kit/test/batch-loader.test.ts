import { describe, expect, it } from 'vitest';
import { createBatchLoader, readByIds } from '../src/batch-loader';

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

  it('readByIds reads each id by itself, all at once, and leaves out the ids not found', async () => {
    const asked: string[] = [];
    let inFlight = 0;
    let most = 0;
    const read = readByIds(async (id: string) => {
      asked.push(id);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return id === 'gone' ? null : { _id: id, n: id.length };
    });
    const found = await read(['a', 'bb', 'gone']);
    expect(asked).toEqual(['a', 'bb', 'gone']);
    expect(most).toBe(3);
    expect([...found.entries()]).toEqual([
      ['a', { _id: 'a', n: 1 }],
      ['bb', { _id: 'bb', n: 2 }],
    ]);
  });
});

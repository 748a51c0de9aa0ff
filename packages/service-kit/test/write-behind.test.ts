import { describe, expect, it } from 'vitest';
import { createWriteBehind } from '../src/write-behind';

/** A write that waits until the test lets it finish (or fail), recording what each write held. */
function gatedWrites() {
  const batches: string[][] = [];
  const gates: Array<(err?: Error) => void> = [];
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      gates.push((err) => (err ? reject(err) : resolve()));
    });
  const settle = async (err?: Error) => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()?.(err);
    await new Promise((r) => setImmediate(r));
  };
  return { batches, write, open: () => settle(), fail: (e: Error) => settle(e) };
}

describe('write-behind', () => {
  it('returns at once, writes the newest item per key, and what arrives during a write goes in the next', async () => {
    const g = gatedWrites();
    const wb = createWriteBehind(g.write);
    wb.put('a', 'a1');
    await new Promise((r) => setImmediate(r));
    expect(g.batches).toEqual([['a1']]);
    wb.put('b', 'b1');
    wb.put('c', 'c1');
    wb.put('b', 'b2');
    await g.open();
    expect(g.batches).toEqual([['a1'], ['b2', 'c1']]);
    await g.open();
    await wb.flush();
    expect(wb.writes).toBe(2);
  });

  it('lets readers in the process see an item until it is stored, and the newest one when two are pending', async () => {
    const g = gatedWrites();
    const wb = createWriteBehind(g.write);
    wb.put('a', 'a1');
    await new Promise((r) => setImmediate(r));
    wb.put('a', 'a2');
    expect(wb.pending('a')).toBe('a2');
    expect(wb.pendingItems()).toEqual(['a2']);
    await g.open();
    expect(wb.pending('a')).toBe('a2');
    await g.open();
    expect(wb.pending('a')).toBeUndefined();
    expect(wb.pendingItems()).toEqual([]);
  });

  it('keeps the items of a failed write, reports the failure, and stores them on the retry', async () => {
    const g = gatedWrites();
    const errors: string[] = [];
    const wb = createWriteBehind(g.write, { retryMs: 10, onError: (e) => errors.push((e as Error).message) });
    wb.put('a', 'a1');
    await new Promise((r) => setImmediate(r));
    wb.put('b', 'b1'); // arrives while the write of a1 runs
    await g.fail(new Error('db down'));
    expect(errors).toEqual(['db down']);
    expect(wb.pending('a')).toBe('a1');
    wb.put('b', 'b2'); // a newer item is not overwritten by the failed one
    await g.open();
    expect(g.batches.map((b) => [...b].sort())).toEqual([['a1'], ['a1', 'b2']]);
    expect(wb.pendingItems()).toEqual([]);
  });

  it('flush waits for everything put, and rejects when the write fails', async () => {
    const g = gatedWrites();
    const wb = createWriteBehind(g.write, { retryMs: 60_000 });
    wb.put('a', 'a1');
    const flushed = wb.flush();
    let done = false;
    void flushed.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    await g.open();
    await flushed;
    wb.put('b', 'b1');
    const failing = expect(wb.flush()).rejects.toThrow('db down');
    await g.fail(new Error('db down'));
    await failing;
    expect(wb.pending('b')).toBe('b1');
  });

  it('splits what piled up into writes of at most maxBatch items (FerretDB hangs on one of more than 100 updates)', async () => {
    const sizes: number[] = [];
    const wb = createWriteBehind(
      async (items: string[]) => {
        sizes.push(items.length);
        await new Promise((r) => setImmediate(r));
      },
      { maxBatch: 50 },
    );
    for (let i = 0; i < 230; i++) wb.put(`k${i}`, `v${i}`);
    await wb.flush();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(230);
    expect(Math.max(...sizes)).toBe(50);
  });
});

import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../src/group-commit';

/** A write that waits until the test lets it finish, recording what each write held. */
function gatedWrites() {
  const batches: string[][] = [];
  const gates: Array<() => void> = [];
  let fail: Error | undefined;
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      const failure = fail;
      fail = undefined;
      gates.push(() => (failure ? reject(failure) : resolve()));
    });
  const open = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, write, open, failNext: (e: Error) => (fail = e) };
}

describe('group commit', () => {
  it('writes a lone item at once, and items that arrive during a write together in the next one', async () => {
    const g = gatedWrites();
    const gc = createGroupCommit(g.write);
    const first = gc.add('a', 'a1');
    await new Promise((r) => setImmediate(r));
    expect(g.batches).toEqual([['a1']]);
    const later = [gc.add('b', 'b1'), gc.add('c', 'c1'), gc.add('b', 'b2')];
    await g.open();
    await first;
    expect(g.batches).toEqual([['a1'], ['b2', 'c1']]);
    await g.open();
    await Promise.all(later);
    expect(gc.writes).toBe(2);
  });

  it('does not answer a caller before the write that holds its item has finished', async () => {
    const g = gatedWrites();
    const gc = createGroupCommit(g.write);
    let done = false;
    const p = gc.add('a', 'a1').then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    await g.open();
    await p;
    expect(done).toBe(true);
  });

  it('a key added again while its write runs is written again afterwards', async () => {
    const g = gatedWrites();
    const gc = createGroupCommit(g.write);
    const p1 = gc.add('a', 'a1');
    await new Promise((r) => setImmediate(r));
    const p2 = gc.add('a', 'a2');
    await g.open();
    await g.open();
    await Promise.all([p1, p2]);
    expect(g.batches).toEqual([['a1'], ['a2']]);
  });

  it('rejects every caller of a failed write, and goes on with the next', async () => {
    const g = gatedWrites();
    const gc = createGroupCommit(g.write);
    g.failNext(new Error('disk full'));
    const p1 = gc.add('a', 'a1');
    await new Promise((r) => setImmediate(r));
    const p2 = gc.add('b', 'b1');
    const p3 = gc.add('b', 'b2');
    const r1 = expect(p1).rejects.toThrow('disk full');
    await g.open();
    await r1;
    await g.open();
    await Promise.all([p2, p3]);
    expect(g.batches).toEqual([['a1'], ['b2']]);
  });

  it('splits a large queue into writes of at most maxBatch items', async () => {
    const sizes: number[] = [];
    const gc = createGroupCommit<number>(
      async (items) => {
        sizes.push(items.length);
        await new Promise((r) => setTimeout(r, 5));
      },
      { maxBatch: 10 },
    );
    await Promise.all(Array.from({ length: 35 }, (_, i) => gc.add(String(i), i)));
    await gc.flush();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(35);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
  });

  it('with lingerMs, writes at once after a quiet spell, and under load waits to fill the next write', async () => {
    const batches: string[][] = [];
    const gc = createGroupCommit(
      async (items: string[]) => {
        batches.push(items);
      },
      { lingerMs: 40 },
    );
    const t0 = performance.now();
    await gc.add('a', 'a');
    expect(performance.now() - t0).toBeLessThan(30); // nothing written lately: no wait
    // A write just ended: the next one waits for items added meanwhile.
    // (without the wait, 'b' would be taken alone at once, before 'c' and 'd' are added)
    await new Promise((r) => setImmediate(r)); // the first write's loop has ended
    const next = gc.add('b', 'b');
    const more = [gc.add('c', 'c'), gc.add('d', 'd')];
    await Promise.all([next, ...more]);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    await new Promise((r) => setTimeout(r, 60));
    await gc.add('e', 'e');
    expect(batches.at(-1)).toEqual(['e']);
    expect(gc.writes).toBe(3);
  });
  it('with moreComing, waits to fill a write only while more is on its way, never for one caller after another', async () => {
    const batches: string[][] = [];
    let coming = 0;
    const gc = createGroupCommit(
      async (items: string[]) => {
        batches.push(items);
      },
      { lingerMs: 40, moreComing: () => coming > 0 },
    );
    const timed = async (p: Promise<void>) => {
      const t0 = performance.now();
      await p;
      return performance.now() - t0;
    };
    // One caller after another, each right after its own write: nothing else on its way, so no wait (without
    // moreComing, every add after the first waited lingerMs: a write had just ended).
    for (const item of ['a', 'b', 'c']) expect(await timed(gc.add(item, item))).toBeLessThan(30);
    expect(batches).toEqual([['a'], ['b'], ['c']]);
    // Two more on their way: the write waits for them, even with no write lately.
    await new Promise((r) => setTimeout(r, 60));
    coming = 2;
    const first = gc.add('d', 'd');
    await new Promise((r) => setTimeout(r, 5));
    const rest = [gc.add('e', 'e'), gc.add('f', 'f')];
    coming = 0;
    await Promise.all([first, ...rest]);
    expect(batches.at(-1)).toEqual(['d', 'e', 'f']);
    expect(gc.writes).toBe(4);
  });

  it('with maxLingerMs, an add past lingerMs starts the lingering write at once, an earlier one does not, and the timer ends a quiet wait', async () => {
    const writes: Array<{ items: string[]; at: number }> = [];
    const gc = createGroupCommit(
      async (items: string[]) => {
        writes.push({ items, at: performance.now() });
      },
      { lingerMs: 20, maxLingerMs: 2000, moreComing: () => true },
    );
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const a = gc.add('a', 'a');
    await sleep(60); // past lingerMs, nothing added: still waiting for an add or the timer
    expect(writes).toEqual([]);
    const bAt = performance.now();
    const b = gc.add('b', 'b');
    await Promise.all([a, b]);
    expect(writes[0]?.items).toEqual(['a', 'b']);
    expect((writes[0]?.at ?? Number.POSITIVE_INFINITY) - bAt).toBeLessThan(1000); // not the 2 s timer
    // An add within lingerMs of the wait's start does not end it; with none after, the timer does.
    const cAt = performance.now();
    const c = gc.add('c', 'c');
    const d = gc.add('d', 'd');
    await Promise.all([c, d]);
    expect(writes[1]?.items).toEqual(['c', 'd']);
    expect((writes[1]?.at ?? 0) - cAt).toBeGreaterThanOrEqual(1900);
    expect(gc.writes).toBe(2);
  });

  for (const maxLingerMs of [5000, undefined]) {
    it(`with${maxLingerMs ? ' maxLingerMs' : 'out maxLingerMs'}, a full batch starts the lingering write`, async () => {
      const batches: string[][] = [];
      const gc = createGroupCommit(
        async (items: string[]) => {
          batches.push(items);
        },
        { maxBatch: 3, lingerMs: 1000, maxLingerMs, moreComing: () => true },
      );
      const t0 = performance.now();
      await Promise.all(['a', 'b', 'c'].map((x) => gc.add(x, x)));
      expect(batches).toEqual([['a', 'b', 'c']]);
      expect(performance.now() - t0).toBeLessThan(900);
    });
  }
});

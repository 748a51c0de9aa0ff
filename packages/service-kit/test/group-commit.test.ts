import { afterEach, describe, expect, it, vi } from 'vitest';
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

  // The lingering tests run on fake timers and a fake performance clock: whether a write waited is told by whether it
  // settles without any timer firing, not by how long it took (a loaded 2-core machine makes any limit flaky).
  const fake = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with lingerMs, writes at once after a quiet spell, and under load waits to fill the next write', async () => {
    fake();
    const batches: string[][] = [];
    const gc = createGroupCommit(
      async (items: string[]) => {
        batches.push(items);
      },
      { lingerMs: 40 },
    );
    expect(await settlesAtOnce(gc.add('a', 'a'))).toBe(true); // nothing written lately: no wait
    // A write just ended: the next one waits for items added meanwhile.
    // (without the wait, 'b' would be taken alone at once, before 'c' and 'd' are added)
    const next = gc.add('b', 'b');
    const more = [gc.add('c', 'c'), gc.add('d', 'd')];
    expect(await settlesAtOnce(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    await Promise.all([next, ...more]);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    await vi.advanceTimersByTimeAsync(60);
    expect(await settlesAtOnce(gc.add('e', 'e'))).toBe(true);
    expect(batches.at(-1)).toEqual(['e']);
    expect(gc.writes).toBe(3);
  });

  it('with moreComing, waits to fill a write only while more is on its way, never for one caller after another', async () => {
    fake();
    const batches: string[][] = [];
    let coming = 0;
    const gc = createGroupCommit(
      async (items: string[]) => {
        batches.push(items);
      },
      { lingerMs: 40, moreComing: () => coming > 0 },
    );
    // One caller after another, each right after its own write: nothing else on its way, so no wait (without
    // moreComing, every add after the first waited lingerMs: a write had just ended).
    for (const item of ['a', 'b', 'c']) expect(await settlesAtOnce(gc.add(item, item)), item).toBe(true);
    expect(batches).toEqual([['a'], ['b'], ['c']]);
    // Two more on their way: the write waits for them, even with no write lately.
    await vi.advanceTimersByTimeAsync(60);
    coming = 2;
    const first = gc.add('d', 'd');
    expect(await settlesAtOnce(first)).toBe(false);
    await vi.advanceTimersByTimeAsync(5);
    const rest = [gc.add('e', 'e'), gc.add('f', 'f')];
    coming = 0;
    await vi.advanceTimersByTimeAsync(40);
    await Promise.all([first, ...rest]);
    expect(batches.at(-1)).toEqual(['d', 'e', 'f']);
    expect(gc.writes).toBe(4);
  });

  it('with maxLingerMs, an add past lingerMs starts the lingering write at once, an earlier one does not, and the timer ends a quiet wait', async () => {
    fake();
    const writes: string[][] = [];
    const gc = createGroupCommit(
      async (items: string[]) => {
        writes.push(items);
      },
      { lingerMs: 20, maxLingerMs: 2000, moreComing: () => true },
    );
    const a = gc.add('a', 'a');
    await vi.advanceTimersByTimeAsync(60); // past lingerMs, nothing added: still waiting for an add or the timer
    expect(writes).toEqual([]);
    // an add past lingerMs ends the wait at once (not the 2 s timer)
    expect(await settlesAtOnce(Promise.all([a, gc.add('b', 'b')]))).toBe(true);
    expect(writes[0]).toEqual(['a', 'b']);
    // An add within lingerMs of the wait's start does not end it; with none after, the timer does.
    const cd = Promise.all([gc.add('c', 'c'), gc.add('d', 'd')]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(await settlesAtOnce(cd)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settlesAtOnce(cd)).toBe(true);
    expect(writes[1]).toEqual(['c', 'd']);
    expect(gc.writes).toBe(2);
  });

  for (const maxLingerMs of [5000, undefined]) {
    it(`with${maxLingerMs ? ' maxLingerMs' : 'out maxLingerMs'}, a full batch starts the lingering write`, async () => {
      fake();
      const batches: string[][] = [];
      const gc = createGroupCommit(
        async (items: string[]) => {
          batches.push(items);
        },
        { maxBatch: 3, lingerMs: 1000, maxLingerMs, moreComing: () => true },
      );
      expect(await settlesAtOnce(Promise.all(['a', 'b', 'c'].map((x) => gc.add(x, x))))).toBe(true);
      expect(batches).toEqual([['a', 'b', 'c']]);
    });
  }
});

/** Whether a promise settles within a few turns of the event loop, with no (fake) timer firing. */
async function settlesAtOnce(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 20 && !done; i++) await new Promise((r) => setImmediate(r));
  return done;
}

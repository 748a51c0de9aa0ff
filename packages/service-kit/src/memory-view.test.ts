import { describe, expect, it } from 'vitest';
import { createMemoryView } from './memory-view';

/** A source whose reads wait until the test lets them go, counting them. */
function source(values: Record<string, string>) {
  const pending: Array<() => void> = [];
  let reads = 0;
  return {
    read: (id: string) =>
      new Promise<string | undefined>((resolve) => {
        reads++;
        pending.push(() => resolve(values[id]));
      }),
    values,
    release: () => {
      for (const go of pending.splice(0)) go();
    },
    get reads() {
      return reads;
    },
  };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createMemoryView', () => {
  it('a miss reads, a hit does not; an absent value is kept as known absent', async () => {
    const s = source({ a: 'A1' });
    const view = createMemoryView<string>({ source: s.read, max: 10, backstopMs: 1000 });
    const first = view.get('a');
    s.release();
    expect(await first).toBe('A1');
    const none = view.get('x');
    await settle();
    s.release();
    expect(await none).toBeNull();
    expect(await view.get('a')).toBe('A1');
    expect(await view.get('x')).toBeNull();
    expect(s.reads).toBe(2);
  });

  it('a read that a later write, a forget or a clear overtook is answered but not kept', async () => {
    const s = source({ a: 'old', b: 'old', c: 'old' });
    const view = createMemoryView<string>({ source: s.read, max: 10, backstopMs: 1000 });
    const slow = view.read(['a', 'b', 'c']);
    await settle();
    view.set('a', 'new'); // a write after the read started
    view.forget('b');
    s.release();
    expect(await slow).toEqual(
      new Map([
        ['a', 'old'],
        ['b', 'old'],
        ['c', 'old'],
      ]),
    );
    expect(view.peek('a')).toBe('new');
    expect(view.peek('b')).toBeUndefined();
    expect(view.peek('c')).toBe('old');

    const overtaken = view.read(['d']);
    await settle();
    view.clear();
    s.values.d = 'D';
    s.release();
    expect(await overtaken).toEqual(new Map([['d', 'D']]));
    expect(view.peek('d')).toBeUndefined();
  });

  it('a change heard applies to the held entry and again on top of a later read, within its window', async () => {
    let t = 0;
    const s = source({ a: 'a' });
    const view = createMemoryView<string>({
      source: s.read,
      max: 10,
      backstopMs: 60_000,
      replay: { windowMs: 100, maxIds: 10 },
      now: () => t,
    });
    const add = (x: string) => (v: string | null) => (v?.includes(x) ? v : `${v ?? ''}${x}`);
    view.hear('a', add('+1')); // heard before the writer wrote it: the read below lacks it
    const read = view.get('a');
    s.release();
    expect(await read).toBe('a+1');
    view.hear('a', add('+2'));
    expect(await view.get('a')).toBe('a+1+2');
    t = 150; // out of the window: a fresh read is what the database holds
    s.values.a = 'a+1+2+db';
    const again = view.get('a', true);
    s.release();
    expect(await again).toBe('a+1+2+db');
  });

  it('past the backstop an entry is read again before the answer, or behind it (once a period)', async () => {
    let t = 1;
    const before = source({ a: 'v1' });
    const b = createMemoryView<string>({ source: before.read, max: 10, backstopMs: 100, now: () => t });
    const first = b.get('a');
    before.release();
    await first;
    before.values.a = 'v2';
    t = 200;
    const second = b.get('a');
    await settle();
    before.release();
    expect(await second).toBe('v2');

    t = 1;
    const behind = source({ a: 'v1' });
    const h = createMemoryView<string>({
      source: behind.read,
      max: 10,
      backstopMs: 100,
      refresh: 'behind',
      now: () => t,
    });
    const one = h.get('a');
    behind.release();
    await one;
    behind.values.a = 'v2';
    t = 200;
    expect(await h.get('a')).toBe('v1'); // answered at once, read behind
    expect(await h.get('a')).toBe('v1'); // no second read in the same period
    expect(behind.reads).toBe(2);
    behind.release();
    await settle();
    expect(await h.get('a')).toBe('v2');
  });

  it('holds at most max entries, the least recently used going first, and says so to onChange', async () => {
    const changes: string[] = [];
    const view = createMemoryView<string>({
      source: async (id) => id.toUpperCase(),
      max: 2,
      backstopMs: 1000,
      onChange: (id, before, after, evicted) => changes.push(`${id}:${before}>${after}${evicted ? ' evicted' : ''}`),
    });
    await view.get('a');
    await view.get('b');
    await view.get('a'); // a is now used more recently than b
    await view.get('c');
    expect([...view.values()].map(([id]) => id).sort()).toEqual(['a', 'c']);
    expect(changes).toEqual(['a:null>A', 'b:null>B', 'b:B>null evicted', 'c:null>C']);
  });

  it('drops what no read since a sequence confirmed (a full scan); a read that failed forgets its ids', async () => {
    let fail = false;
    const view = createMemoryView<string>({
      source: async (id) => {
        if (fail) throw new Error('away');
        return id;
      },
      max: 10,
      backstopMs: 1000,
    });
    await view.read(['a', 'b']);
    const since = view.next();
    view.set('a', 'a2', since);
    view.dropOlderThan(since);
    expect([...view.values()]).toEqual([['a', 'a2']]);
    fail = true;
    await expect(view.read(['a'])).rejects.toThrow('away');
    expect(view.peek('a')).toBeUndefined();
  });
});

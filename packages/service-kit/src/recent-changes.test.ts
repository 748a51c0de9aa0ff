import { describe, expect, it } from 'vitest';
import { createRecentChanges } from './recent-changes';

describe('createRecentChanges', () => {
  it('keeps each id’s changes in the order heard, within the window only', () => {
    let t = 1_000;
    const recent = createRecentChanges<string>({ windowMs: 100, maxIds: 10, now: () => t });
    recent.add('a', 'a1');
    t += 60;
    recent.add('a', 'a2');
    recent.add('b', 'b1');
    expect(recent.of('a')).toEqual(['a1', 'a2']);
    t += 50; // a1 is 110 ms old, a2 and b1 50 ms
    expect(recent.of('a')).toEqual(['a2']);
    expect(recent.of('b')).toEqual(['b1']);
    t += 51;
    expect(recent.of('a')).toEqual([]);
    expect(recent.of('c')).toEqual([]);
  });

  it('forgets ids out of the window as others are heard, and holds at most maxIds', () => {
    let t = 0;
    const recent = createRecentChanges<number>({ windowMs: 100, maxIds: 3, now: () => t });
    recent.add('old', 1);
    t = 500;
    recent.add('new', 2);
    expect(recent.size).toBe(1);
    for (const id of ['x', 'y', 'z']) recent.add(id, 3);
    expect(recent.size).toBe(3);
    expect(recent.of('new')).toEqual([]); // the one heard longest ago went first
    expect(recent.of('z')).toEqual([3]);
  });

  it('an id heard again moves to the newest end', () => {
    let t = 0;
    const recent = createRecentChanges<number>({ windowMs: 1_000, maxIds: 2, now: () => t });
    recent.add('a', 1);
    t = 1;
    recent.add('b', 1);
    t = 2;
    recent.add('a', 2);
    recent.add('c', 1); // b goes, not a
    expect(recent.of('a')).toEqual([1, 2]);
    expect(recent.of('b')).toEqual([]);
  });
});

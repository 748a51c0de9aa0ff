import { describe, expect, it } from 'vitest';
import { firstRepeat, inPlayOrder, itemsFromFileIds, loopsRefused, placementConflict } from './playlists';

const at = new Date('2025-01-01T00:00:00Z');
const items = [
  { fileId: 'b', position: 4, createdAt: at },
  { fileId: 'a', position: 0, createdAt: at },
];

describe('playlist rules', () => {
  it('a file goes in once, at a free position', () => {
    expect(placementConflict(items, 'a', 9)).toBe('PLAYLIST_ITEM_EXISTS');
    expect(placementConflict(items, 'c', 4)).toBe('PLAYLIST_POSITION_TAKEN');
    expect(placementConflict(items, 'c', 1)).toBeUndefined();
  });

  it('play order is by position; a repeat is found', () => {
    expect(inPlayOrder(items).map((i) => i.fileId)).toEqual(['a', 'b']);
    expect(firstRepeat(['x', 'y', 'x'])).toBe('x');
    expect(firstRepeat(['x', 'y'])).toBeUndefined();
  });

  it('a save numbers the files from 0 and keeps when a file was first added', () => {
    const now = new Date('2025-02-01T00:00:00Z');
    expect(itemsFromFileIds(['c', 'b'], items, now)).toEqual([
      { fileId: 'c', position: 0, createdAt: now },
      { fileId: 'b', position: 1, createdAt: at },
    ]);
  });

  it("a save sets each video's loops (none named: once), or keeps them when it names none", () => {
    const now = new Date('2025-02-01T00:00:00Z');
    const before = [{ fileId: 'v', position: 0, createdAt: at, loops: 3 }, ...items];
    expect(itemsFromFileIds(['v', 'a'], before, now, { v: 2 })).toEqual([
      { fileId: 'v', position: 0, createdAt: at, loops: 2 },
      { fileId: 'a', position: 1, createdAt: at },
    ]);
    // 1 is stored as nothing (once), and a file the loops do not name plays once
    expect(itemsFromFileIds(['v'], before, now, { v: 1 })).toEqual([{ fileId: 'v', position: 0, createdAt: at }]);
    expect(itemsFromFileIds(['v'], before, now, {})).toEqual([{ fileId: 'v', position: 0, createdAt: at }]);
    expect(itemsFromFileIds(['a', 'v'], before, now)).toEqual([
      { fileId: 'a', position: 0, createdAt: at },
      { fileId: 'v', position: 1, createdAt: at, loops: 3 },
    ]);
  });

  it('loops are refused on a file that is not a video, or not saved', () => {
    const kinds: Record<string, string> = { v: 'video', p: 'pdf', i: 'image' };
    const kindOf = (id: string) => kinds[id];
    expect(loopsRefused(undefined, ['p'], kindOf)).toBeUndefined();
    expect(loopsRefused({ v: 5 }, ['v', 'p'], kindOf)).toBeUndefined();
    expect(loopsRefused({ v: 2, p: 2 }, ['v', 'p'], kindOf)).toBe('p');
    expect(loopsRefused({ i: 1 }, ['i'], kindOf)).toBe('i');
    expect(loopsRefused({ v: 2 }, ['p'], kindOf)).toBe('v');
  });
});

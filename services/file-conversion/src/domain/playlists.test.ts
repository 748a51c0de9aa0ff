import { describe, expect, it } from 'vitest';
import { firstRepeat, inPlayOrder, itemsFromFileIds, placementConflict } from './playlists';

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
});

import { describe, expect, it } from 'vitest';
import {
  firstPlayable,
  loopsOfChosen,
  moveFile,
  removeFile,
  toggleFile,
  validPlaylistName,
} from '../src/features/playlists/model/editor';

describe('playlist editor', () => {
  it('ticking adds at the end, unticking removes', () => {
    expect(toggleFile(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleFile(['a', 'b'], 'a')).toEqual(['b']);
  });
  it('moves up and down, not past the ends', () => {
    expect(moveFile(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveFile(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveFile(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveFile(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
    expect(removeFile(['a', 'b'], 'a')).toEqual(['b']);
  });
  it('plays from the first playable item; a name must not be blank', () => {
    expect(
      firstPlayable([
        { fileId: 'a', file: null },
        { fileId: 'b', file: {} },
      ]),
    ).toEqual({ fileId: 'b', index: 1 });
    expect(firstPlayable([{ fileId: 'a', file: null }])).toBeNull();
    expect(firstPlayable([])).toBeNull();
    expect(validPlaylistName('  Lobby ')).toBe('Lobby');
    expect(validPlaylistName('   ')).toBeNull();
  });
  it("sends each chosen video's loops, not a page's, not a removed file's, not once", () => {
    const isVideo = (id: string) => id.startsWith('v');
    expect(loopsOfChosen(['v1', 'p', 'v2', 'v3'], { v1: 3, p: 2, v2: 1, gone: 4, v3: 99 }, isVideo)).toEqual({
      v1: 3,
      v3: 99,
    });
    expect(loopsOfChosen([], { v1: 3 }, isVideo)).toEqual({});
  });
});

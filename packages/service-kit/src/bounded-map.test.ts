import { describe, expect, it } from 'vitest';
import { setNewest } from './bounded-map';

describe('setNewest', () => {
  it('keeps the newest entries, a key set again counting as new', () => {
    const map = new Map<string, number>();
    setNewest(map, 'a', 1, 2);
    setNewest(map, 'b', 2, 2);
    setNewest(map, 'a', 3, 2); // a is now newer than b
    setNewest(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});

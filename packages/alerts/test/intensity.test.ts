import { describe, expect, it } from 'vitest';
import { INTENSITIES, type Intensity, intensityRank } from '../src/index.ts';

describe('intensityRank', () => {
  it('orders the nine steps of the JMA scale, 5 and 6 split in lower and upper', () => {
    expect(INTENSITIES.map(intensityRank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(intensityRank('5+')).toBeGreaterThan(intensityRank('5-'));
    expect(intensityRank('7')).toBe(9);
  });
  it('refuses what is not on the scale', () => {
    expect(() => intensityRank('5' as Intensity)).toThrow(RangeError);
  });
});

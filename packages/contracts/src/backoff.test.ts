import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the first wait with each failure, up to the longest', () => {
    const top = () => 1;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 1000, 15_000, top))).toEqual([
      1000, 2000, 4000, 8000, 15_000, 15_000,
    ]);
  });

  it('draws between half and all of the ceiling, never zero', () => {
    expect(backoffDelay(3, 1000, 15_000, () => 0)).toBe(2000);
    expect(backoffDelay(3, 1000, 15_000, () => 0.5)).toBe(3000);
    for (let i = 0; i < 200; i++) {
      const ms = backoffDelay(2, 500, 10_000);
      expect(ms).toBeGreaterThanOrEqual(500);
      expect(ms).toBeLessThanOrEqual(1000);
    }
  });

  it('treats zero or a huge count of failures as the bounds', () => {
    expect(backoffDelay(0, 250, 5000, () => 1)).toBe(250);
    expect(backoffDelay(10_000, 250, 5000, () => 1)).toBe(5000);
  });
});

import { describe, expect, it } from 'vitest';
import { monthKey, monthKeyToDate, monthStart, nextMonthKey, nextMonthStart } from './months';

describe('months in Asia/Tokyo', () => {
  it('starts the month at 00:00 Tokyo on the 1st, which is 15:00 UTC the day before', () => {
    expect(monthStart(new Date('2026-11-22T12:00:00Z')).toISOString()).toBe('2026-10-31T15:00:00.000Z');
  });

  it('counts 23:30 UTC on the last day as the next month already (08:30 Tokyo on the 1st)', () => {
    const at = new Date('2026-11-30T15:30:00Z');
    expect(monthKey(at)).toBe(202612);
    expect(monthStart(at).toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('keeps 14:59 UTC on the last day in the old month', () => {
    expect(monthKey(new Date('2026-11-30T14:59:59.999Z'))).toBe(202611);
  });

  it('rolls December over to January of the next year', () => {
    const at = new Date('2026-12-15T00:00:00Z');
    expect(nextMonthKey(at)).toBe(202701);
    expect(nextMonthStart(at).toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(monthKeyToDate(202701)).toBe('2027-01-01');
  });
});

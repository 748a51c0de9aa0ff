import { describe, expect, it } from 'vitest';
import { addMonths, monthKey, monthKeyStart, monthStart, sameDayInMonth, tokyoDate } from './months';

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
    const next = addMonths(monthKey(at), 1);
    expect(next).toBe(202701);
    expect(monthKeyStart(next).toISOString()).toBe('2026-12-31T15:00:00.000Z');
  });

  it('adds months across years, both ways', () => {
    expect(addMonths(202611, 1)).toBe(202612);
    expect(addMonths(202612, 1)).toBe(202701);
    expect(addMonths(202701, -1)).toBe(202612);
    expect(addMonths(202601, 25)).toBe(202802);
  });

  it('finds the same Tokyo day and time in another month, or its last day', () => {
    const anchor = new Date('2026-01-30T15:30:00Z'); // 31 January 00:30 in Tokyo
    expect(sameDayInMonth(anchor, 202602).toISOString()).toBe('2026-02-27T15:30:00.000Z'); // 28 February 00:30
    expect(sameDayInMonth(anchor, 202603).toISOString()).toBe('2026-03-30T15:30:00.000Z'); // 31 March 00:30
    expect(tokyoDate(sameDayInMonth(anchor, 202602))).toBe('2026-02-28');
    expect(sameDayInMonth(new Date('2026-11-26T05:00:00Z'), 202612).toISOString()).toBe('2026-12-26T05:00:00.000Z');
  });
});

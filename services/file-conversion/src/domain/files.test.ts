import { describe, expect, it } from 'vitest';
import { startOfMonth } from './files';

describe("the dashboard's month (Asia/Tokyo, as billing's Points screen)", () => {
  it('begins at 00:00 Tokyo on the 1st, 15:00 UTC the day before', () => {
    expect(startOfMonth(new Date('2026-11-22T12:00:00Z')).toISOString()).toBe('2026-10-31T15:00:00.000Z');
  });

  it('already counts 15:00 UTC on the last day as the new month', () => {
    expect(startOfMonth(new Date('2026-11-30T15:00:00Z')).toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(startOfMonth(new Date('2026-11-30T14:59:59Z')).toISOString()).toBe('2026-10-31T15:00:00.000Z');
  });
});

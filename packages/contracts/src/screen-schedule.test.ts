import { describe, expect, it } from 'vitest';
import type { ScreenAssignment } from './api/screens';
import { nextBoundary, resolvePlaying, scheduleProblems, wallClock } from './screen-schedule';

const schedule = (parts: Array<[number[], string, string, string]>, dflt: string | null = 'pl-default') =>
  ({
    kind: 'schedule',
    schedule: {
      parts: parts.map(([days, start, end, playlistId]) => ({ days, start, end, playlistId })),
      defaultPlaylistId: dflt,
    },
  }) satisfies ScreenAssignment;

const playlist = (id: string) => ({ kind: 'playlist', playlistId: id });
const at = (iso: string) => Date.parse(iso);

describe('screen schedule', () => {
  it('plays the part of the weekday in the screen zone, and the default outside parts', () => {
    // weekdays 09:00-17:00 Tokyo time; 2026-11-23 is a Monday
    const a = schedule([[[1, 2, 3, 4, 5], '09:00', '17:00', 'pl-office']]);
    expect(resolvePlaying(a, 'Asia/Tokyo', at('2026-11-23T00:00:00Z'))).toEqual(playlist('pl-office')); // 09:00 JST
    expect(resolvePlaying(a, 'Asia/Tokyo', at('2026-11-22T23:59:59Z'))).toEqual(playlist('pl-default')); // 08:59 JST
    expect(resolvePlaying(a, 'Asia/Tokyo', at('2026-11-23T08:00:00Z'))).toEqual(playlist('pl-default')); // 17:00 JST
    // Saturday 10:00 JST
    expect(resolvePlaying(a, 'Asia/Tokyo', at('2026-11-28T01:00:00Z'))).toEqual(playlist('pl-default'));
    // The same instant is Sunday evening in New York: the zone decides the weekday.
    expect(wallClock(at('2026-11-23T00:00:00Z'), 'America/New_York').day).toBe(0);
  });

  it('a part that crosses midnight plays into the early hours of the next day', () => {
    const a = schedule([[[5], '22:00', '02:00', 'pl-night']], null); // Friday night
    expect(resolvePlaying(a, 'Europe/Paris', at('2026-11-27T21:30:00Z'))).toEqual(playlist('pl-night')); // Fri 22:30
    expect(resolvePlaying(a, 'Europe/Paris', at('2026-11-28T00:30:00Z'))).toEqual(playlist('pl-night')); // Sat 01:30
    expect(resolvePlaying(a, 'Europe/Paris', at('2026-11-28T01:00:00Z'))).toEqual({ kind: 'none' }); // Sat 02:00
    expect(resolvePlaying(a, 'Europe/Paris', at('2026-11-26T23:30:00Z'))).toEqual({ kind: 'none' }); // Fri 00:30
    expect(nextBoundary(a, 'Europe/Paris', at('2026-11-27T21:30:00Z'))).toBe(at('2026-11-28T01:00:00Z'));
  });

  it('finds the next boundary on the wall clock, across a daylight saving change', () => {
    // New York leaves daylight saving on Sunday 2026-11-01 at 02:00 (UTC-4 → UTC-5).
    const a = schedule([[[0], '09:00', '12:00', 'pl-sunday']]);
    const saturdayNoon = at('2026-10-31T16:00:00Z'); // Sat 12:00 EDT
    expect(nextBoundary(a, 'America/New_York', saturdayNoon)).toBe(at('2026-11-01T14:00:00Z')); // Sun 09:00 EST
    expect(resolvePlaying(a, 'America/New_York', at('2026-11-01T14:00:00Z'))).toEqual(playlist('pl-sunday'));
    expect(resolvePlaying(a, 'America/New_York', at('2026-11-01T13:59:00Z'))).toEqual(playlist('pl-default'));
    // Tokyo has no daylight saving: the same rule there is a plain 24 h step.
    expect(nextBoundary(a, 'Asia/Tokyo', at('2026-11-21T03:00:00Z'))).toBe(at('2026-11-22T00:00:00Z'));
  });

  it('skips boundaries that change nothing and answers null when nothing ever changes', () => {
    const a = schedule(
      [
        [[1], '09:00', '12:00', 'pl-a'],
        [[1], '12:00', '15:00', 'pl-a'],
      ],
      null,
    );
    expect(nextBoundary(a, 'Asia/Tokyo', at('2026-11-23T01:00:00Z'))).toBe(at('2026-11-23T06:00:00Z'));
    expect(nextBoundary(playlist('pl-a') as ScreenAssignment, 'Asia/Tokyo', Date.now())).toBeNull();
  });

  it('reports empty and overlapping parts, including an overlap after midnight', () => {
    expect(scheduleProblems(schedule([[[1], '10:00', '10:00', 'x']]).schedule)).toEqual([{ part: 0, reason: 'empty' }]);
    expect(
      scheduleProblems(
        schedule([
          [[1], '09:00', '12:00', 'x'],
          [[1, 2], '11:59', '13:00', 'y'],
        ]).schedule,
      ),
    ).toEqual([{ part: 1, reason: 'overlap', other: 0 }]);
    expect(
      scheduleProblems(
        schedule([
          [[6], '23:00', '01:00', 'x'], // Saturday night into Sunday
          [[0], '00:30', '02:00', 'y'],
        ]).schedule,
      ),
    ).toEqual([{ part: 1, reason: 'overlap', other: 0 }]);
    expect(
      scheduleProblems(
        schedule([
          [[1], '09:00', '12:00', 'x'],
          [[1], '12:00', '24:00', 'y'],
          [[2], '00:00', '09:00', 'z'],
        ]).schedule,
      ),
    ).toEqual([]);
  });
});

// The Screens page's reading of a screen: what plays now, until when and what follows, on the screen's
// own clock (weekdays, midnight, zones, daylight saving); the time zone list and its search; titles for ids.
import type { ScreenAssignment } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import {
  filterZones,
  knownTimeZones,
  nowAndNext,
  zoneOffset,
  zoneOptions,
} from '../src/features/screens/model/now-next';
import { titlesOf } from '../src/features/screens/model/titles';

const schedule = (parts: Array<[number[], string, string, string]>, dflt: string | null = 'pl-rest') =>
  ({
    kind: 'schedule',
    schedule: {
      parts: parts.map(([days, start, end, playlistId]) => ({ days, start, end, playlistId })),
      defaultPlaylistId: dflt,
    },
  }) satisfies ScreenAssignment;
const at = (iso: string) => Date.parse(iso);
const pl = (playlistId: string) => ({ kind: 'playlist', playlistId });

describe('now and next on the screen clock', () => {
  // weekdays: lunch 11:30-14:00, afternoon 14:00-18:00; 2026-11-27 is a Friday
  const day = schedule([
    [[1, 2, 3, 4, 5], '11:30', '14:00', 'pl-lunch'],
    [[1, 2, 3, 4, 5], '14:00', '18:00', 'pl-afternoon'],
  ]);

  it('names the part playing, its end and the part after it', () => {
    const r = nowAndNext(day, 'Asia/Tokyo', at('2026-11-27T03:00:00Z')); // Fri 12:00 JST
    expect(r).toEqual({ now: pl('pl-lunch'), until: at('2026-11-27T05:00:00Z'), next: pl('pl-afternoon') });
  });

  it('after the last part of Friday, the default plays until Monday', () => {
    const r = nowAndNext(day, 'Asia/Tokyo', at('2026-11-27T10:00:00Z')); // Fri 19:00 JST
    expect(r.now).toEqual(pl('pl-rest'));
    expect(r.until).toBe(at('2026-11-30T02:30:00Z')); // Mon 11:30 JST
    expect(r.next).toEqual(pl('pl-lunch'));
  });

  it('the same instant is another day part in another zone', () => {
    const instant = at('2026-11-27T03:00:00Z'); // 12:00 in Tokyo, 04:00 in Paris
    expect(nowAndNext(day, 'Asia/Tokyo', instant).now).toEqual(pl('pl-lunch'));
    const paris = nowAndNext(day, 'Europe/Paris', instant);
    expect(paris.now).toEqual(pl('pl-rest'));
    expect(paris.until).toBe(at('2026-11-27T10:30:00Z')); // 11:30 CET
  });

  it('a part crossing midnight ends the next morning', () => {
    const night = schedule([[[5], '22:00', '02:00', 'pl-night']], null);
    const r = nowAndNext(night, 'Europe/Paris', at('2026-11-27T22:30:00Z')); // Fri 23:30 CET
    expect(r).toEqual({ now: pl('pl-night'), until: at('2026-11-28T01:00:00Z'), next: { kind: 'none' } });
  });

  it('across a daylight saving change, the switch is at the wall-clock time', () => {
    // Paris leaves summer time on Sunday 2026-10-25 at 03:00 (UTC+2 → UTC+1); a Sunday part at 09:00
    const sunday = schedule([[[0], '09:00', '12:00', 'pl-sunday']]);
    const r = nowAndNext(sunday, 'Europe/Paris', at('2026-10-24T10:00:00Z')); // Sat 12:00 CEST
    expect(r.until).toBe(at('2026-10-25T08:00:00Z')); // Sun 09:00 CET
    expect(r.next).toEqual(pl('pl-sunday'));
  });

  it('a playlist or a file never changes: no until, no next', () => {
    expect(nowAndNext({ kind: 'playlist', playlistId: 'p' }, 'UTC', Date.now())).toEqual({
      now: pl('p'),
      until: null,
      next: null,
    });
    expect(nowAndNext({ kind: 'none' }, 'UTC', Date.now()).now).toEqual({ kind: 'none' });
  });
});

describe('time zone list', () => {
  it('has the zones the browser knows, each with its offset at that instant', () => {
    const zones = knownTimeZones();
    expect(zones).toContain('Asia/Tokyo');
    expect(zones).toContain('UTC');
    expect(zoneOffset('Asia/Tokyo', at('2026-07-01T00:00:00Z'))).toBe('+09:00');
    expect(zoneOffset('America/New_York', at('2026-07-01T00:00:00Z'))).toBe('-04:00');
    expect(zoneOffset('America/New_York', at('2026-12-01T00:00:00Z'))).toBe('-05:00');
    expect(zoneOffset('Asia/Kolkata', at('2026-12-01T00:00:00Z'))).toBe('+05:30');
    expect(zoneOffset('UTC', at('2026-12-01T00:00:00Z'))).toBe('+00:00');
    const tokyo = zoneOptions(at('2026-12-01T00:00:00Z')).find((o) => o.zone === 'Asia/Tokyo');
    expect(tokyo?.label).toBe('(UTC+09:00) Asia/Tokyo');
  });

  it('is searched by any words of the name or the offset; the chosen zone stays listed', () => {
    const options = zoneOptions(at('2026-12-01T00:00:00Z'));
    expect(filterZones(options, 'tokyo').map((o) => o.zone)).toEqual(['Asia/Tokyo']);
    expect(filterZones(options, 'new york').map((o) => o.zone)).toEqual(['America/New_York']);
    expect(filterZones(options, 'NEW_YORK').map((o) => o.zone)).toEqual(['America/New_York']);
    expect(filterZones(options, '+09:00').map((o) => o.zone)).toContain('Asia/Seoul');
    expect(filterZones(options, '+09:00').map((o) => o.zone)).not.toContain('Europe/Paris');
    expect(filterZones(options, 'paris', 'Asia/Tokyo').map((o) => o.zone)).toEqual(['Asia/Tokyo', 'Europe/Paris']);
    expect(filterZones(options, '  ')).toHaveLength(options.length);
  });
});

describe('titles', () => {
  it('names files and playlists the member may read; any other id has no title', () => {
    const titles = titlesOf([{ id: 'f1', title: 'Lunch menu' }], [{ id: 'p1', name: 'Afternoon' }]);
    expect(titles.file('f1')).toBe('Lunch menu');
    expect(titles.playlist('p1')).toBe('Afternoon');
    expect(titles.file('f-other')).toBeNull();
    expect(titles.file(null)).toBeNull();
    expect(titles.playlist('f1')).toBeNull();
  });
});

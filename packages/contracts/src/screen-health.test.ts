// The fleet health rules as unit tests (opening hours, thresholds, states and their order, alert grouping).
import { describe, expect, it } from 'vitest';
import type { OpeningHours, ShownReport } from './api/screen-health';
import {
  alertAfterOf,
  dueAlerts,
  expectedOf,
  type HealthInputs,
  healthOf,
  isOpenAt,
  mismatchSince,
  openingHoursOf,
  openThroughout,
  pastThreshold,
  showsExpected,
} from './screen-health';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
// 2026-11-23 is a Monday; Tokyo is UTC+9 all year
const weekdays9to18: OpeningHours = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }];
const night: OpeningHours = [{ days: [5], start: '22:00', end: '02:00' }];

describe('isOpenAt', () => {
  it('is open inside a span, closed outside it, the end excluded', () => {
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', at('2026-11-23T00:00:00Z'))).toBe(true); // Mon 09:00 JST
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', at('2026-11-22T23:59:00Z'))).toBe(false); // Mon 08:59
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', at('2026-11-23T08:59:00Z'))).toBe(true); // Mon 17:59
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', at('2026-11-23T09:00:00Z'))).toBe(false); // Mon 18:00
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', at('2026-11-28T03:00:00Z'))).toBe(false); // Sat 12:00
  });

  it('reads the hours in the screen’s zone', () => {
    const instant = at('2026-11-23T03:00:00Z'); // Mon 12:00 in Tokyo, Mon 04:00 in Paris, Sun 22:00 in New York
    expect(isOpenAt(weekdays9to18, 'Asia/Tokyo', instant)).toBe(true);
    expect(isOpenAt(weekdays9to18, 'Europe/Paris', instant)).toBe(false);
    expect(isOpenAt(weekdays9to18, 'America/New_York', at('2026-11-23T15:00:00Z'))).toBe(true); // Mon 10:00
  });

  it('follows daylight saving: the wall-clock time stays, the instant moves', () => {
    const sundays: OpeningHours = [{ days: [0, 6], start: '09:00', end: '10:00' }];
    // Saturday 28 March 2026 is CET (UTC+1), Sunday 29 March CEST (UTC+2)
    expect(isOpenAt(sundays, 'Europe/Paris', at('2026-03-28T08:30:00Z'))).toBe(true);
    expect(isOpenAt(sundays, 'Europe/Paris', at('2026-03-29T08:30:00Z'))).toBe(false); // 10:30 CEST
    expect(isOpenAt(sundays, 'Europe/Paris', at('2026-03-29T07:30:00Z'))).toBe(true); // 09:30 CEST
  });

  it('crosses midnight: a Friday 22:00–02:00 span opens Friday night and the early hours of Saturday only', () => {
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-27T13:00:00Z'))).toBe(true); // Fri 22:00
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-27T16:59:00Z'))).toBe(true); // Sat 01:59
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-27T17:00:00Z'))).toBe(false); // Sat 02:00
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-27T12:59:00Z'))).toBe(false); // Fri 21:59
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-26T16:00:00Z'))).toBe(false); // Fri 01:00 (after Thursday)
    expect(isOpenAt(night, 'Asia/Tokyo', at('2026-11-28T13:00:00Z'))).toBe(false); // Sat 22:00
  });

  it('is always open without hours (null) and never with an empty list', () => {
    expect(isOpenAt(null, 'Asia/Tokyo', at('2026-11-28T18:00:00Z'))).toBe(true);
    expect(isOpenAt([], 'Asia/Tokyo', at('2026-11-23T03:00:00Z'))).toBe(false);
  });

  it('takes 00:00–24:00 as the whole day', () => {
    const allSunday: OpeningHours = [{ days: [0], start: '00:00', end: '24:00' }];
    expect(isOpenAt(allSunday, 'Asia/Tokyo', at('2026-11-28T15:00:00Z'))).toBe(true); // Sun 00:00
    expect(isOpenAt(allSunday, 'Asia/Tokyo', at('2026-11-29T14:59:00Z'))).toBe(true); // Sun 23:59
    expect(isOpenAt(allSunday, 'Asia/Tokyo', at('2026-11-29T15:00:00Z'))).toBe(false); // Mon 00:00
  });
});

describe('openingHoursOf and alertAfterOf', () => {
  it('takes the screen’s own hours, else its first group’s that has some, else none', () => {
    const own: OpeningHours = [{ days: [0], start: '10:00', end: '11:00' }];
    const groups = [{ openingHours: null }, { openingHours: weekdays9to18 }, { openingHours: night }];
    expect(openingHoursOf(own, groups)).toBe(own);
    expect(openingHoursOf([], groups)).toEqual([]); // its own "never open" is its own
    expect(openingHoursOf(null, groups)).toBe(weekdays9to18);
    expect(openingHoursOf(null, [{ openingHours: null }])).toBeNull();
    expect(openingHoursOf(null, [])).toBeNull();
  });

  it('takes the smallest threshold of its groups, 5 minutes outside any', () => {
    expect(alertAfterOf([])).toBe(5);
    expect(alertAfterOf([{ alertAfterMinutes: 30 }, { alertAfterMinutes: 10 }, { alertAfterMinutes: 60 }])).toBe(10);
    expect(alertAfterOf([{ alertAfterMinutes: 15 }])).toBe(15);
  });
});

const page = (fileId: string, over: Partial<Extract<ShownReport, { kind: 'page' }>> = {}): ShownReport => ({
  kind: 'page',
  fileId,
  page: 1,
  shownAt: '2026-11-23T03:00:00.000Z',
  holdSeconds: 10,
  loaded: true,
  error: null,
  ...over,
});
const blank: ShownReport = { kind: 'blank', shownAt: '2026-11-23T03:00:00.000Z' };
const message = (takeoverId: string): ShownReport => ({
  kind: 'message',
  takeoverId,
  shownAt: '2026-11-23T03:00:00.000Z',
});

describe('expectedOf, showsExpected and mismatchSince', () => {
  it('expects what the resolution plays', () => {
    expect(expectedOf({ playing: { kind: 'file', fileId: 'f' }, because: { rule: 'screen' } } as never)).toEqual({
      kind: 'file',
      fileId: 'f',
    });
    expect(
      expectedOf({
        playing: { kind: 'message', title: 't', body: 'b' },
        because: { rule: 'takeover', takeoverId: 't1' },
      } as never),
    ).toEqual({ kind: 'message', takeoverId: 't1' });
    expect(expectedOf({ playing: { kind: 'none' }, because: { rule: 'none' } } as never)).toEqual({ kind: 'none' });
  });

  it('accepts a page of the file, of a file of the playlist, the takeover’s message, blank for nothing', () => {
    expect(showsExpected(page('f'), { kind: 'file', fileId: 'f' })).toBe(true);
    expect(showsExpected(page('g'), { kind: 'file', fileId: 'f' })).toBe(false);
    expect(showsExpected(blank, { kind: 'file', fileId: 'f' })).toBe(false);
    expect(showsExpected(page('f'), { kind: 'playlist', playlistId: 'p' }, new Set(['e', 'f']))).toBe(true);
    expect(showsExpected(page('g'), { kind: 'playlist', playlistId: 'p' }, new Set(['e', 'f']))).toBe(false);
    // the playlist's files unknown: the server does not accuse
    expect(showsExpected(page('g'), { kind: 'playlist', playlistId: 'p' })).toBe(true);
    expect(showsExpected(blank, { kind: 'playlist', playlistId: 'p' }, new Set())).toBe(true);
    expect(showsExpected(page('f'), { kind: 'playlist', playlistId: 'p' }, new Set())).toBe(false);
    expect(showsExpected(message('t1'), { kind: 'message', takeoverId: 't1' })).toBe(true);
    expect(showsExpected(message('t2'), { kind: 'message', takeoverId: 't1' })).toBe(false);
    expect(showsExpected(page('f'), { kind: 'message', takeoverId: 't1' })).toBe(false);
    expect(showsExpected(blank, { kind: 'none' })).toBe(true);
    expect(showsExpected(page('f'), { kind: 'none' })).toBe(false);
  });

  it('keeps the first wrong report’s time while it stays wrong, and forgets it when right or unknown', () => {
    expect(mismatchSince(null, false, 1000)).toBe(1000);
    expect(mismatchSince(1000, false, 5000)).toBe(1000);
    expect(mismatchSince(1000, true, 5000)).toBeNull();
    expect(mismatchSince(1000, null, 5000)).toBeNull();
  });
});

describe('healthOf', () => {
  const now = at('2026-11-23T03:00:00Z'); // Monday 12:00 in Tokyo
  const base: HealthInputs = {
    lastSeenAt: now - 10_000,
    openingHours: null,
    timeZone: 'Asia/Tokyo',
    shows: page('f', { shownAt: iso(now - 5000) }),
    wrongSince: null,
  };
  const state = (over: Partial<HealthInputs>, when = now) => healthOf({ ...base, ...over }, when);

  it('is ok when seen lately and showing its page within its time', () => {
    expect(state({})).toEqual({ state: 'ok', since: null, reason: { state: 'ok' } });
    expect(state({ shows: null }).state).toBe('ok'); // an older display that reports nothing
  });

  it('is offline after two missed heartbeats (35 s), since the last one', () => {
    expect(state({ lastSeenAt: now - 35_000 }).state).toBe('ok');
    expect(state({ lastSeenAt: now - 35_001 })).toMatchObject({ state: 'offline', since: now - 35_001 });
    expect(state({ lastSeenAt: null })).toMatchObject({ state: 'offline', since: null });
  });

  it('is closed outside its hours whatever else (closed before offline), and the display cannot claim it', () => {
    const saturday = at('2026-11-28T03:00:00Z');
    expect(state({ openingHours: weekdays9to18, lastSeenAt: null }, saturday)).toMatchObject({ state: 'closed' });
    expect(state({ openingHours: weekdays9to18, shows: page('f', { error: 'not-found' }) }, saturday).state).toBe(
      'closed',
    );
    // open now: a display showing blank (as it would when it says it is closed) is judged as any other
    expect(state({ openingHours: weekdays9to18, lastSeenAt: now - 60_000, shows: blank }).state).toBe('offline');
  });

  it('is broken when its image failed, before frozen', () => {
    const shownAt = now - 3_600_000; // long past its 10 s too
    expect(state({ shows: page('f', { shownAt: iso(shownAt), error: 'forbidden', page: 3 }) })).toEqual({
      state: 'broken',
      since: shownAt,
      reason: { state: 'broken', error: 'forbidden', fileId: 'f', page: 3 },
    });
    // offline comes first
    expect(state({ lastSeenAt: now - 60_000, shows: page('f', { error: 'forbidden' }) }).state).toBe('offline');
  });

  it('counts broken from the first failed image of a run, not the current page', () => {
    // a playlist whose every page fails: this page failed 5 s ago, the first one 10 minutes ago
    const failing = page('f', { shownAt: iso(now - 5000), error: 'not-found', page: 2 });
    expect(state({ shows: failing, brokenSince: now - 600_000 })).toMatchObject({
      state: 'broken',
      since: now - 600_000,
    });
    // no server time for the run: the page's shownAt, no later than the heartbeat that reported it (10 s ago)
    expect(state({ shows: failing, brokenSince: null })).toMatchObject({ state: 'broken', since: now - 10_000 });
  });

  it("dates broken by the server's clock, not the display's: a page shown in 1970 is broken since it was heard", () => {
    const old = page('f', { shownAt: '1970-01-01T00:00:00.000Z', error: 'load-failed' });
    expect(state({ shows: old, brokenSince: now - 5000 })).toMatchObject({ state: 'broken', since: now - 5000 });
    expect(state({ shows: old, shownSeenAt: now - 7000 })).toMatchObject({ state: 'broken', since: now - 7000 });
    // nothing heard on the server's clock: the display's time, never later than its last heartbeat
    const ahead = page('f', { shownAt: iso(now + 3_600_000), error: 'load-failed' });
    expect(state({ shows: ahead })).toMatchObject({ state: 'broken', since: now - 10_000 });
  });

  it('is frozen when the display tells its video stopped, from when the server heard of the picture', () => {
    const stopped = page('v', { shownAt: iso(now - 8000), holdSeconds: 30, video: { second: 4.2, frozen: true } });
    expect(state({ shows: stopped, shownSeenAt: now - 7000 })).toEqual({
      state: 'frozen',
      since: now - 7000,
      reason: { state: 'frozen', fileId: 'v', second: 4.2 },
    });
    // a playing video's page within its time is ok; a failed one is broken first
    expect(state({ shows: page('v', { shownAt: iso(now - 8000), holdSeconds: 30, video: { second: 7 } }) }).state).toBe(
      'ok',
    );
    expect(state({ shows: { ...stopped, error: 'decode-failed', loaded: false } as ShownReport }).state).toBe('broken');
  });

  it('is frozen once its picture outstays its page by more than 30 s', () => {
    const shownAt = now - 40_000;
    expect(state({ shows: page('f', { shownAt: iso(shownAt), holdSeconds: 10 }) }).state).toBe('ok'); // 40 = 10 + 30
    expect(state({ shows: page('f', { shownAt: iso(shownAt - 1), holdSeconds: 10 }) })).toEqual({
      state: 'frozen',
      since: shownAt - 1 + 40_000,
      reason: { state: 'frozen', shownSeconds: 40, holdSeconds: 10 },
    });
    // judged from when the server first heard of the picture when it knows (a display whose clock is behind)
    expect(
      state({ shows: page('f', { shownAt: iso(shownAt - 1), holdSeconds: 10 }), shownSeenAt: now - 5000 }).state,
    ).toBe('ok');
    // a message or blank never freezes
    expect(state({ shows: { kind: 'blank', shownAt: iso(now - 86_400_000) } }).state).toBe('ok');
  });

  it('is wrong only after showing the wrong thing for over a minute, and frozen comes first', () => {
    expect(state({ wrongSince: now - 60_000 }).state).toBe('ok');
    expect(state({ wrongSince: now - 61_000 })).toEqual({
      state: 'wrong',
      since: now - 61_000,
      reason: { state: 'wrong', wrongSeconds: 61 },
    });
    const stale = page('f', { shownAt: iso(now - 3_600_000) });
    expect(state({ wrongSince: now - 120_000, shows: stale }).state).toBe('frozen');
  });
});

describe('pastThreshold and openThroughout', () => {
  const monday9 = at('2026-11-23T00:00:00Z'); // Monday 09:00 in Tokyo
  const offlineSince = (since: number) => ({
    state: 'offline' as const,
    since,
    reason: { state: 'offline' as const, lastSeenAt: since },
  });

  it('opens an incident once the bad state lasted its threshold', () => {
    const since = monday9 + 60 * MIN;
    expect(pastThreshold(offlineSince(since), 5, since + 5 * MIN - 1, null, 'Asia/Tokyo')).toBe(false);
    expect(pastThreshold(offlineSince(since), 5, since + 5 * MIN, null, 'Asia/Tokyo')).toBe(true);
    expect(pastThreshold(offlineSince(since), 30, since + 29 * MIN, null, 'Asia/Tokyo')).toBe(false);
  });

  it('never for ok, closed or a screen never seen', () => {
    expect(pastThreshold({ state: 'ok', since: null, reason: { state: 'ok' } }, 1, monday9, null, 'UTC')).toBe(false);
    expect(pastThreshold({ state: 'closed', since: null, reason: { state: 'closed' } }, 1, monday9, null, 'UTC')).toBe(
      false,
    );
    expect(
      pastThreshold(
        { state: 'offline', since: null, reason: { state: 'offline', lastSeenAt: null } },
        1,
        monday9 + 1000 * MIN,
        null,
        'UTC',
      ),
    ).toBe(false);
  });

  it('counts a screen off all night only from its opening: no incident until a threshold after it', () => {
    const lastSeenFriday = at('2026-11-20T09:30:00Z'); // Friday 18:30: switched off at the wall
    const verdict = offlineSince(lastSeenFriday);
    expect(pastThreshold(verdict, 5, monday9, weekdays9to18, 'Asia/Tokyo')).toBe(false);
    expect(pastThreshold(verdict, 5, monday9 + 4 * MIN, weekdays9to18, 'Asia/Tokyo')).toBe(false);
    expect(pastThreshold(verdict, 5, monday9 + 5 * MIN, weekdays9to18, 'Asia/Tokyo')).toBe(true);
    // with a 20-minute threshold, 20 minutes after opening
    expect(pastThreshold(verdict, 20, monday9 + 19 * MIN, weekdays9to18, 'Asia/Tokyo')).toBe(false);
    expect(pastThreshold(verdict, 20, monday9 + 20 * MIN, weekdays9to18, 'Asia/Tokyo')).toBe(true);
  });

  it('openThroughout checks both ends and the steps between', () => {
    expect(openThroughout(weekdays9to18, 'Asia/Tokyo', monday9, monday9 + 60 * MIN)).toBe(true);
    expect(openThroughout(weekdays9to18, 'Asia/Tokyo', monday9 - MIN, monday9 + 60 * MIN)).toBe(false);
    expect(openThroughout(weekdays9to18, 'Asia/Tokyo', monday9, monday9 + 9 * 60 * MIN)).toBe(false); // 18:00
    // a lunch break inside the window
    const split: OpeningHours = [
      { days: [1], start: '09:00', end: '12:00' },
      { days: [1], start: '13:00', end: '18:00' },
    ];
    expect(openThroughout(split, 'Asia/Tokyo', monday9, monday9 + 6 * 60 * MIN)).toBe(false);
    expect(openThroughout(null, 'Asia/Tokyo', 0, 10 ** 12)).toBe(true);
  });
});

describe('dueAlerts', () => {
  const t0 = at('2026-11-23T03:00:00Z');
  const alert = (ownerId: string, at: number, id: string) => ({ ownerId, at, id });

  it('waits until the owner’s oldest unsent alert is 60 s old, then sends all of that owner’s in one', () => {
    const pending = [alert('a', t0, 'a1'), alert('a', t0 + 50_000, 'a2'), alert('a', t0 + 59_000, 'a3')];
    expect(dueAlerts(pending, t0 + 59_999).size).toBe(0);
    const due = dueAlerts(pending, t0 + 60_000);
    expect([...due.keys()]).toEqual(['a']);
    expect(due.get('a')?.map((p) => p.id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('judges each owner on their own alerts', () => {
    const pending = [alert('a', t0, 'a1'), alert('b', t0 + 30_000, 'b1'), alert('a', t0 + 40_000, 'a2')];
    const due = dueAlerts(pending, t0 + 60_000);
    expect([...due.keys()]).toEqual(['a']);
    expect(due.get('a')?.map((p) => p.id)).toEqual(['a1', 'a2']);
    const later = dueAlerts(pending, t0 + 90_000);
    expect(later.get('b')?.map((p) => p.id)).toEqual(['b1']);
    expect(later.get('a')).toHaveLength(2);
  });

  it('has nothing to send without pending alerts', () => {
    expect(dueAlerts([], t0).size).toBe(0);
  });
});

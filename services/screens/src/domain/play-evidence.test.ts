import type { OpeningHours, ScreenAssignment } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AssignmentAt,
  addInterval,
  countsAsPlay,
  evidenceSince,
  type FileFacts,
  type Interval,
  judgePlays,
  MAX_PLAYED_INTERVALS,
  overlapMs,
  type PlayCandidate,
  type PlayEvidence,
  reachedPastEnd,
  trimPlayed,
  wasGiven,
} from './play-evidence';

const MIN = 60_000;
const T0 = Date.parse('2026-11-20T00:00:00Z');
const at = (minutes: number) => T0 + minutes * MIN;

const mine: FileFacts = { ownerId: 'owner', pageCount: 3, deletedAt: null };
const theirs: FileFacts = { ownerId: 'seller', pageCount: 5, deletedAt: null };

function evidence(over: Partial<PlayEvidence> = {}): PlayEvidence {
  return {
    ownerId: 'owner',
    pairedAt: at(0),
    now: at(600),
    assignments: [{ at: at(0), assignment: { kind: 'file', fileId: 'f-mine' } }],
    playlists: new Map(),
    files: new Map([
      ['f-mine', mine],
      ['f-sold', theirs],
      ['f-other', { ...theirs, ownerId: 'someone' }],
    ]),
    licences: new Map(),
    gaps: [],
    played: [],
    claimed: new Map(),
    ...over,
  };
}

let n = 0;
const rec = (over: Partial<PlayCandidate> = {}): PlayCandidate => ({
  id: `r-${++n}`,
  fileId: 'f-mine',
  page: 1,
  start: at(10),
  seconds: 10,
  ...over,
});
const reasons = (records: PlayCandidate[], ev: PlayEvidence) =>
  judgePlays(records, ev).verdicts.map((v) => (v.accepted ? 'ok' : v.reason));

describe('judging play records', () => {
  it("accepts the owner's assigned file, page in range, after pairing and before now", () => {
    expect(reasons([rec(), rec({ page: 3, start: at(11) })], evidence())).toEqual(['ok', 'ok']);
  });

  it('refuses a file of another member the screen was never given, and one given but neither owned nor licensed', () => {
    expect(reasons([rec({ fileId: 'f-other' })], evidence())).toEqual(['not-assigned']);
    const given = evidence({ assignments: [{ at: at(0), assignment: { kind: 'file', fileId: 'f-other' } }] });
    expect(reasons([rec({ fileId: 'f-other' })], given)).toEqual(['not-licensed']);
  });

  it("refuses the owner's own file while it is not assigned", () => {
    const ev = evidence({ assignments: [{ at: at(0), assignment: { kind: 'none' } }] });
    expect(reasons([rec()], ev)).toEqual(['not-assigned']);
  });

  it('counts a licensed file only from the purchase until the licence ends', () => {
    const ev = evidence({
      assignments: [{ at: at(0), assignment: { kind: 'file', fileId: 'f-sold' } }],
      licences: new Map([['f-sold', [{ from: at(5), to: at(20) }]]]),
    });
    expect(reasons([rec({ fileId: 'f-sold', start: at(4) }), rec({ fileId: 'f-sold', start: at(6) })], ev)).toEqual([
      'not-licensed',
      'ok',
    ]);
    expect(reasons([rec({ fileId: 'f-sold', start: at(20) })], ev)).toEqual(['not-licensed']);
    expect(reasons([rec({ fileId: 'f-sold', start: at(20) - 15_000 })], ev)).toEqual(['ok']);
  });

  it('refuses a page that does not exist (0, or past the page count) and a file nobody announced', () => {
    expect(reasons([rec({ page: 0 }), rec({ page: 4, start: at(11) })], evidence())).toEqual([
      'no-such-page',
      'no-such-page',
    ]);
    const unknown = evidence({ assignments: [{ at: at(0), assignment: { kind: 'file', fileId: 'f-new' } }] });
    expect(reasons([rec({ fileId: 'f-new' })], unknown)).toEqual(['not-licensed']);
  });

  it("refuses a video's record whose reached second lies past the video's length (a second of slack)", () => {
    const video: FileFacts = { ...mine, pageCount: 1, videoSeconds: 12.5 };
    const ev = evidence({ files: new Map([['f-mine', video]]) });
    const records = [
      rec({ reachedSecond: 12.5, seconds: 25 }),
      rec({ reachedSecond: 13.5, start: at(11) }),
      rec({ reachedSecond: 13.51, start: at(12) }),
      rec({ reachedSecond: 0, start: at(13) }),
      rec({ start: at(14) }),
    ];
    expect(reasons(records, ev)).toEqual(['ok', 'ok', 'past-video-end', 'ok', 'ok']);
    // refused records add nothing to the screen's played time
    expect(judgePlays(records, ev).played).toEqual([
      { s: at(10), e: at(10) + 25_000 },
      { s: at(11), e: at(11) + 10_000 },
      { s: at(13), e: at(13) + 10_000 },
      { s: at(14), e: at(14) + 10_000 },
    ]);
    // its length not known (not a video, or its conversion not heard of): the reached second is not judged
    expect(reasons([rec({ reachedSecond: 5000 })], evidence())).toEqual(['ok']);
    expect(reachedPastEnd(undefined, video)).toBe(false);
  });

  it('refuses records starting before the pairing (past the slack) or ending in the future (past the slack)', () => {
    const ev = evidence({
      pairedAt: at(100),
      assignments: [{ at: at(100), assignment: { kind: 'file', fileId: 'f-mine' } }],
    });
    expect(reasons([rec({ start: at(94) }), rec({ start: at(96) })], ev)).toEqual(['before-pairing', 'not-assigned']);
    // the display's clock not measured: a few seconds past now, not minutes
    expect(reasons([rec({ start: at(599), seconds: 66 })], evidence())).toEqual(['ends-in-future']);
    expect(reasons([rec({ start: at(599), seconds: 64 })], evidence())).toEqual(['ok']);
    // its heartbeats showed it a minute ahead: up to a minute and a few seconds, and never past the batch's slack
    const ahead = evidence({ clockAheadMs: 60_000 });
    expect(reasons([rec({ start: at(599), seconds: 126 })], ahead)).toEqual(['ends-in-future']);
    expect(reasons([rec({ start: at(599), seconds: 124 })], ahead)).toEqual(['ok']);
    const farAhead = evidence({ clockAheadMs: 3_600_000 });
    expect(reasons([rec({ start: at(599), seconds: 5 * 60 + 66 })], farAhead)).toEqual(['ends-in-future']);
    // a clock behind allows nothing more
    expect(reasons([rec({ start: at(599), seconds: 66 })], evidence({ clockAheadMs: -30_000 }))).toEqual([
      'ends-in-future',
    ]);
  });

  it('never lets the accepted plays of a screen add up to more time than passed', () => {
    // 500 records of an hour each, all starting within 5 s
    const records = Array.from({ length: 500 }, (_, i) => rec({ start: at(10) + i * 10, seconds: 3600 }));
    // sent half an hour after they started: each would end in the future
    const early = judgePlays(records, evidence({ now: at(40) }));
    expect(early.verdicts.every((v) => !v.accepted && v.reason === 'ends-in-future')).toBe(true);
    expect(early.played).toEqual([]);
    const past = evidence({ now: at(10 + 24 * 60) });
    const judged = judgePlays(records, past);
    const accepted = judged.verdicts.filter((v) => v.accepted);
    expect(accepted).toHaveLength(1);
    expect(judged.verdicts.filter((v) => !v.accepted && v.reason === 'overlap')).toHaveLength(499);
    expect(judged.played).toEqual([{ s: at(10), e: at(70) }]);
  });

  it('accepts honest back-to-back pages that overlap by a rounding, crediting only the new time', () => {
    const a = rec({ start: at(10), seconds: 10.05 });
    const b = rec({ start: at(10) + 10_000, seconds: 10 });
    const { verdicts, played } = judgePlays([b, a], evidence());
    expect(verdicts).toEqual([
      { id: b.id, accepted: true, credited: 9.95 },
      { id: a.id, accepted: true, credited: 10.05 },
    ]);
    expect(played).toEqual([{ s: at(10), e: at(10) + 20_000 }]);
  });

  it('refuses an overlap beyond a second, or of half a short record, also against plays counted before', () => {
    const ev = evidence({ played: [{ s: at(10), e: at(11) }] });
    expect(reasons([rec({ start: at(11) - 1500, seconds: 10 })], ev)).toEqual(['overlap']);
    expect(reasons([rec({ start: at(11) - 900, seconds: 10 })], ev)).toEqual(['ok']);
    expect(reasons([rec({ start: at(11) - 600, seconds: 1 })], ev)).toEqual(['overlap']);
    // many short records inside one counted minute never slip in one by one
    const crumbs = Array.from({ length: 30 }, (_, i) => rec({ start: at(10) + i * 2000, seconds: 1 }));
    expect(reasons(crumbs, ev).every((r) => r === 'overlap')).toBe(true);
  });

  it('accepts a record an earlier batch claimed (stored set, failed insert) without judging it against itself', () => {
    const r = rec({ start: at(10), seconds: 10 });
    const ev = evidence({
      played: [{ s: at(10), e: at(10) + 10_000 }],
      claimed: new Map([[r.id, { s: r.start, e: r.start + 10_000, credited: 10 }]]),
    });
    expect(judgePlays([r], ev).verdicts).toEqual([{ id: r.id, accepted: true, credited: 10 }]);
    // another record at the same time is an overlap
    expect(reasons([rec({ start: at(10), seconds: 10 })], ev)).toEqual(['overlap']);
  });
});

describe('what the screen was given', () => {
  const playlist = (id: string): ScreenAssignment => ({ kind: 'playlist', playlistId: id });

  it("follows a playlist's contents over time, with a minute for a change to reach the display", () => {
    const ev = evidence({
      assignments: [{ at: at(0), assignment: playlist('p') }],
      playlists: new Map([
        [
          'p',
          [
            { from: at(0), fileIds: ['f-mine'] },
            { from: at(30), fileIds: ['f-sold'] },
          ],
        ],
      ]),
    });
    expect(wasGiven(ev, 'f-mine', at(29))).toBe(true);
    expect(wasGiven(ev, 'f-mine', at(30) + 59_000)).toBe(true);
    expect(wasGiven(ev, 'f-mine', at(31) + 1000)).toBe(false);
    expect(wasGiven(ev, 'f-sold', at(30))).toBe(true);
    expect(wasGiven(ev, 'f-sold', at(30) - 1000)).toBe(false);
  });

  it('takes any playlist of a schedule or its default (the display resolves day parts on its own clock)', () => {
    const ev = evidence({
      assignments: [
        {
          at: at(0),
          assignment: {
            kind: 'schedule',
            schedule: { parts: [{ days: [1], start: '09:00', end: '10:00', playlistId: 'a' }], defaultPlaylistId: 'b' },
          },
        },
      ],
      playlists: new Map([
        ['a', [{ from: at(0), fileIds: ['f-mine'] }]],
        ['b', [{ from: at(0), fileIds: ['f-sold'] }]],
      ]),
    });
    expect(wasGiven(ev, 'f-mine', at(10))).toBe(true);
    expect(wasGiven(ev, 'f-sold', at(10))).toBe(true);
    expect(wasGiven(ev, 'f-other', at(10))).toBe(false);
  });

  it('a deleted file leaves the content when it is deleted; a deleted playlist has no files from then on', () => {
    const ev = evidence({
      files: new Map([['f-mine', { ...mine, deletedAt: at(20) }]]),
      assignments: [
        { at: at(0), assignment: { kind: 'file', fileId: 'f-mine' } },
        { at: at(40), assignment: playlist('p') },
      ],
      playlists: new Map([
        [
          'p',
          [
            { from: at(0), fileIds: ['f-sold'] },
            { from: at(50), fileIds: [] },
          ],
        ],
      ]),
    });
    expect(wasGiven(ev, 'f-mine', at(20) + 30_000)).toBe(true);
    expect(wasGiven(ev, 'f-mine', at(22))).toBe(false);
    expect(wasGiven(ev, 'f-sold', at(45))).toBe(true);
    expect(wasGiven(ev, 'f-sold', at(52))).toBe(false);
  });

  it('an offline display may show what it had at the start of its gap, until a minute after it came back', () => {
    const ev = evidence({
      assignments: [
        { at: at(0), assignment: { kind: 'file', fileId: 'f-mine' } },
        { at: at(120), assignment: { kind: 'file', fileId: 'f-sold' } },
      ],
      gaps: [{ from: at(100), to: at(300) }],
    });
    expect(wasGiven(ev, 'f-mine', at(200))).toBe(true); // offline, playing its last content
    expect(wasGiven(ev, 'f-mine', at(300) + 30_000)).toBe(true); // back, not yet read the change
    expect(wasGiven(ev, 'f-mine', at(302))).toBe(false); // back for two minutes: it had the change
    expect(wasGiven(ev, 'f-mine', at(150))).toBe(true);
    const online = evidence({ ...ev, gaps: [] });
    expect(wasGiven(online, 'f-mine', at(150))).toBe(false);
    // what it never had is not given in the gap either
    expect(wasGiven(ev, 'f-other', at(200))).toBe(false);
    // a change its live stream may still have brought after its last report (before it counted as offline)
    const changedAt = (ms: number) =>
      evidence({
        ...ev,
        assignments: [
          { at: at(0), assignment: { kind: 'file', fileId: 'f-mine' } },
          { at: ms, assignment: { kind: 'file', fileId: 'f-other' } },
          { at: at(120), assignment: { kind: 'file', fileId: 'f-sold' } },
        ],
      });
    expect(wasGiven(changedAt(at(100) + 20_000), 'f-other', at(200))).toBe(true);
    expect(wasGiven(changedAt(at(100) + 40_000), 'f-other', at(200))).toBe(false);
  });

  it('needs the assignments in effect a minute before the earliest record, or before a gap it falls in', () => {
    expect(evidenceSince([{ start: at(10) }, { start: at(20) }], [])).toBe(at(9));
    expect(evidenceSince([{ start: at(200) }], [{ from: at(100), to: at(300) }])).toBe(at(99));
    expect(evidenceSince([{ start: at(200) }], [{ from: at(10), to: at(20) }])).toBe(at(199));
  });
});

describe('the interval set', () => {
  it('measures overlap against sorted intervals, merges within a second, and keeps its size bounded', () => {
    const set: Interval[] = [
      { s: 0, e: 10 },
      { s: 20, e: 30 },
    ];
    expect(overlapMs(set, 5, 25)).toBe(10);
    expect(overlapMs(set, 10, 20)).toBe(0);
    expect(addInterval(set, 10, 20, 0)).toEqual([{ s: 0, e: 30 }]);
    expect(addInterval(set, 40, 50, 0)).toEqual([...set, { s: 40, e: 50 }]);
    expect(addInterval([{ s: 0, e: 1000 }], 1500, 2000)).toEqual([{ s: 0, e: 2000 }]);
    const crumbs = Array.from({ length: MAX_PLAYED_INTERVALS + 10 }, (_, i) => ({ s: i * 10, e: i * 10 + 5 }));
    const trimmed = trimPlayed(crumbs, 0);
    expect(trimmed.length).toBeLessThanOrEqual(MAX_PLAYED_INTERVALS);
    // closing holes only grows what counts as played
    expect(trimmed[0]?.s).toBe(0);
    expect(trimmed[trimmed.length - 1]?.e).toBe((MAX_PLAYED_INTERVALS + 9) * 10 + 5);
    expect(trimPlayed([{ s: 0, e: 10 }], 40 * 86_400_000)).toEqual([]);
  });
});

describe('opening hours in force (a closed display plays and records nothing)', () => {
  const HOUR = 60;
  const SEC = 1000;
  const ALL: Array<0 | 1 | 2 | 3 | 4 | 5 | 6> = [0, 1, 2, 3, 4, 5, 6];
  const file = { kind: 'file', fileId: 'f-mine' } as const;
  const daytime: OpeningHours = [{ days: ALL, start: '08:00', end: '20:00' }];
  // T0 is Friday 2026-11-20 00:00 UTC; `now` two days on so that every record has ended
  const withHours = (assignments: AssignmentAt[], over: Partial<PlayEvidence> = {}) =>
    evidence({ assignments, now: at(48 * HOUR), ...over });

  it('refuses a record made at night while the screen was closed, and counts one made during the day', () => {
    const ev = withHours([{ at: at(0), assignment: file, openingHours: daytime, timeZone: 'UTC' }]);
    expect(reasons([rec({ start: at(3 * HOUR) }), rec({ start: at(9 * HOUR) })], ev)).toEqual(['closed', 'ok']);
    // closed comes first: a closed display plays nothing, so what it claims to have played does not matter
    expect(reasons([rec({ start: at(22 * HOUR), fileId: 'f-other' })], ev)).toEqual(['closed']);
  });

  it('refuses a record partly closed whole, and lets one that touches a boundary within a second count', () => {
    const ev = withHours([{ at: at(0), assignment: file, openingHours: daytime, timeZone: 'UTC' }]);
    expect(
      reasons(
        [
          rec({ start: at(20 * HOUR) - 30 * SEC, seconds: 60 }), // runs 30 s past closing
          rec({ start: at(8 * HOUR) - 30 * SEC, seconds: 60 }), // starts 30 s before opening
          rec({ start: at(20 * HOUR) - 10 * SEC, seconds: 10.5 }), // ends half a second after closing
          rec({ start: at(8 * HOUR) - 500, seconds: 10 }), // starts half a second before opening
          rec({ start: at(10 * HOUR), seconds: 2 * 3600 }), // two hours, all open
        ],
        ev,
      ),
    ).toEqual(['closed', 'closed', 'ok', 'ok', 'ok']);
    // open at both ends, closed in between (a lunch break): refused
    const lunch = withHours([
      {
        at: at(0),
        assignment: file,
        timeZone: 'UTC',
        openingHours: [
          { days: ALL, start: '08:00', end: '12:00' },
          { days: ALL, start: '13:00', end: '20:00' },
        ],
      },
    ]);
    expect(reasons([rec({ start: at(11 * HOUR), seconds: 3 * 3600 })], lunch)).toEqual(['closed']);
    expect(reasons([rec({ start: at(11 * HOUR), seconds: 3600 })], lunch)).toEqual(['ok']);
  });

  it('follows hours that cross midnight into the next day', () => {
    // Friday 22:00 until Saturday 02:00 only
    const ev = withHours([
      { at: at(0), assignment: file, openingHours: [{ days: [5], start: '22:00', end: '02:00' }], timeZone: 'UTC' },
    ]);
    expect(
      reasons(
        [
          rec({ start: at(21 * HOUR) }), // Friday 21:00
          rec({ start: at(23 * HOUR) }), // Friday 23:00
          rec({ start: at(24 * HOUR) - 30 * SEC, seconds: 60 }), // across midnight
          rec({ start: at(25 * HOUR) }), // Saturday 01:00
          rec({ start: at(27 * HOUR) }), // Saturday 03:00
        ],
        ev,
      ),
    ).toEqual(['closed', 'ok', 'ok', 'ok', 'closed']);
  });

  it("judges the hours on the wall clock of the screen's zone then", () => {
    const tokyo = withHours([
      {
        at: at(0),
        assignment: file,
        openingHours: [{ days: ALL, start: '09:00', end: '17:00' }],
        timeZone: 'Asia/Tokyo',
      },
    ]);
    // 01:00 UTC is 10:00 in Tokyo, 10:00 UTC is 19:00 there
    expect(reasons([rec({ start: at(1 * HOUR) }), rec({ start: at(10 * HOUR) })], tokyo)).toEqual(['ok', 'closed']);
    // the zone changed at 12:00 UTC: the same hours in UTC from then on (after its minute to arrive)
    const moved = withHours([
      ...tokyo.assignments,
      {
        at: at(12 * HOUR),
        assignment: file,
        openingHours: [{ days: ALL, start: '09:00', end: '17:00' }],
        timeZone: 'UTC',
      },
    ]);
    expect(reasons([rec({ start: at(10 * HOUR) }), rec({ start: at(13 * HOUR) })], moved)).toEqual(['closed', 'ok']);
  });

  it('gives a change of hours a minute to reach the display, and judges each time by the hours in force then', () => {
    const closesEarly = withHours([
      { at: at(0), assignment: file, openingHours: daytime, timeZone: 'UTC' },
      {
        at: at(10 * HOUR),
        assignment: file,
        openingHours: [{ days: ALL, start: '08:00', end: '10:00' }],
        timeZone: 'UTC',
      },
    ]);
    expect(
      reasons(
        [
          rec({ start: at(9 * HOUR) }), // before the change, open by both
          rec({ start: at(10 * HOUR) + 30 * SEC }), // the display may still follow the old hours
          rec({ start: at(10 * HOUR) + 90 * SEC }), // it had the new ones
        ],
        closesEarly,
      ),
    ).toEqual(['ok', 'ok', 'closed']);
    // opened at 21:00 (a screen without hours from then: always open): refused before, counted from the change on
    const opens = withHours([
      { at: at(0), assignment: file, openingHours: daytime, timeZone: 'UTC' },
      { at: at(21 * HOUR), assignment: file },
    ]);
    expect(reasons([rec({ start: at(21 * HOUR) - 20 * SEC }), rec({ start: at(21 * HOUR) + 5 * SEC })], opens)).toEqual(
      ['closed', 'ok'],
    );
  });

  it('judges entries without hours (always open, or written before hours were recorded) as before', () => {
    const old = withHours([{ at: at(0), assignment: file }]);
    expect(reasons([rec({ start: at(3 * HOUR) })], old)).toEqual(['ok']);
    const never = withHours([{ at: at(0), assignment: file, openingHours: [], timeZone: 'UTC' }]);
    expect(reasons([rec({ start: at(12 * HOUR) })], never)).toEqual(['closed']);
  });

  it('finds a closed stretch inside a record across a change of daylight saving time', () => {
    // Paris springs forward on 2026-03-29 at 01:00 UTC (02:00 CET becomes 03:00 CEST); closed 03:00-03:30 there,
    // which is 01:00-01:30 UTC: a record from 00:30 (01:30 CET) to 02:00 UTC (04:00 CEST) is open at both ends
    const spring = Date.parse('2026-03-29T00:00:00Z');
    const ev = evidence({
      pairedAt: spring - 24 * HOUR * MIN,
      now: spring + 24 * HOUR * MIN,
      assignments: [
        {
          at: spring - 24 * HOUR * MIN,
          assignment: file,
          timeZone: 'Europe/Paris',
          openingHours: [
            { days: ALL, start: '00:00', end: '03:00' },
            { days: ALL, start: '03:30', end: '24:00' },
          ],
        },
      ],
    });
    const utc = (hours: number) => spring + hours * HOUR * MIN;
    expect(
      reasons(
        [
          rec({ start: utc(0.5), seconds: 90 * 60 }), // across the closed half hour
          rec({ start: utc(1.5), seconds: 30 * 60 }), // 03:30-04:00 CEST
          rec({ start: utc(0), seconds: 55 * 60 }), // 01:00-01:55 CET
        ],
        ev,
      ),
    ).toEqual(['closed', 'ok', 'ok']);
    // Paris falls back on 2026-10-25 at 01:00 UTC (03:00 CEST becomes 02:00 CET): closed 03:00-03:30 there is
    // 02:00-02:30 UTC, after the change; a record from 00:30 (02:30 CEST) to 02:45 UTC (03:45 CET) holds it
    const fall = Date.parse('2026-10-25T00:00:00Z');
    const autumn = evidence({
      ...ev,
      pairedAt: fall - 24 * HOUR * MIN,
      now: fall + 24 * HOUR * MIN,
      assignments: [{ ...(ev.assignments[0] as AssignmentAt), at: fall - 24 * HOUR * MIN }],
    });
    const at2 = (hours: number) => fall + hours * HOUR * MIN;
    expect(
      reasons([rec({ start: at2(0.5), seconds: 135 * 60 }), rec({ start: at2(2.5), seconds: 60 * 60 })], autumn),
    ).toEqual(['closed', 'ok']);
  });

  it('lets an offline display follow the hours it had when it went offline', () => {
    const ev = withHours(
      [
        { at: at(0), assignment: file },
        { at: at(12 * HOUR), assignment: file, openingHours: daytime, timeZone: 'UTC' },
      ],
      { gaps: [{ from: at(12 * HOUR) - 10 * SEC, to: at(22 * HOUR) }] },
    );
    expect(reasons([rec({ start: at(21 * HOUR) })], ev)).toEqual(['ok']);
    expect(reasons([rec({ start: at(21 * HOUR) })], { ...ev, gaps: [] })).toEqual(['closed']);
    expect(reasons([rec({ start: at(23 * HOUR) })], ev)).toEqual(['closed']); // back, with the new hours
  });
});

describe('attacks on the sold report: plays count time, not records', () => {
  const PAGE = 10;
  const sold: FileFacts = { ownerId: 'seller', pageCount: 1, deletedAt: null, pageSeconds: PAGE };
  const licensed = (over: Partial<PlayEvidence> = {}) =>
    evidence({
      assignments: [{ at: at(0), assignment: { kind: 'file', fileId: 'f-sold' } }],
      files: new Map([['f-sold', sold]]),
      licences: new Map([['f-sold', [{ from: at(0), to: at(6000) }]]]),
      ...over,
    });
  const soldRec = (start: number, seconds: number) => rec({ fileId: 'f-sold', start, seconds });
  /** What the sold report makes of a judged batch: plays (countsAsPlay) and credited seconds. */
  const report = (records: PlayCandidate[], ev: PlayEvidence) => {
    const { verdicts } = judgePlays(records, ev);
    let plays = 0;
    let seconds = 0;
    // the time the accepted records cover, holes not joined
    let covered: Interval[] = [];
    verdicts.forEach((v, i) => {
      if (!v.accepted) return;
      seconds += v.credited;
      if (countsAsPlay(v.credited, v.pageSeconds)) plays++;
      const r = records[i] as PlayCandidate;
      covered = addInterval(covered, r.start, r.start + r.seconds * 1000, 0);
    });
    const wall = covered.reduce((n, iv) => n + (iv.e - iv.s), 0) / 1000;
    return { plays, seconds, wall, accepted: verdicts.filter((v) => v.accepted).length };
  };

  it('500 records of 0.001 s, 2 ms apart, sent twice: no play, a second of screen time', () => {
    const first = Array.from({ length: 500 }, (_, i) => soldRec(at(10) + 2 * i, 0.001));
    const second = Array.from({ length: 500 }, (_, i) => soldRec(at(10) + 1000 + 2 * i, 0.001));
    const r = report([...first, ...second], licensed());
    expect(r.plays).toBe(0);
    expect(r.seconds).toBeCloseTo(1, 6);
  });

  it('fifty 2 s records each overlapping the one before by 0.99 s: credited time is the wall time, no play', () => {
    const chain = Array.from({ length: 50 }, (_, i) => soldRec(at(10) + i * 1010, 2));
    const r = report(chain, licensed());
    expect(r.plays).toBe(0);
    expect(r.seconds).toBeCloseTo((49 * 1010 + 2000) / 1000, 6);
    // the same chain of a file with 2 s pages: each adds 1.01 s, about one page's worth of time per play at most
    const short = report(chain, licensed({ files: new Map([['f-sold', { ...sold, pageSeconds: 2 }]]) }));
    expect(short.plays).toBeLessThanOrEqual(Math.ceil(short.seconds / (0.8 * 2)));
  });

  it('records starting 10 to 80 s in the future are refused unless the display was measured that far ahead', () => {
    const ev = licensed({ now: at(600) });
    const future = [10, 30, 80].map((s) => soldRec(at(600) + s * 1000, 5));
    expect(reasons(future, ev)).toEqual(['ends-in-future', 'ends-in-future', 'ends-in-future']);
    expect(reasons(future, licensed({ now: at(600), clockAheadMs: 90_000 }))).toEqual(['ok', 'ok', 'ok']);
  });

  it('an honest page always counts: its full time, rounded to a tenth, clipped by a rounding overlap', () => {
    for (let page = 1; page <= 60; page++) {
      expect(countsAsPlay(page - 0.05, page), `${page} s`).toBe(true);
      expect(countsAsPlay(page * 0.8 - 0.1, page), `${page} s cut short`).toBe(false);
    }
    // a duration not known: the 1 s floor only
    expect(countsAsPlay(0.95, undefined)).toBe(true);
    expect(countsAsPlay(0.5, undefined)).toBe(false);
  });

  it('whatever records a display makes up, the credited time never exceeds the wall time, nor plays its measure', () => {
    // seeded: a failure names its seed
    for (let seed = 1; seed <= 40; seed++) {
      let x = seed;
      const rnd = () => {
        x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
        return x / 2 ** 31;
      };
      const records: PlayCandidate[] = [];
      let t = at(10);
      for (let i = 0; i < 300; i++) {
        // crumbs, pages, chains overlapping by up to 1.5 s, holes
        const seconds = rnd() < 0.3 ? 0.001 + rnd() * 0.1 : 0.5 + rnd() * 15;
        records.push(soldRec(t, Math.round(seconds * 1000) / 1000));
        t += Math.round(seconds * 1000) - Math.round(rnd() * 1500) + (rnd() < 0.1 ? 3000 : 0);
      }
      const r = report(records, licensed({ now: t + 60_000 }));
      expect(r.seconds, `seed ${seed}`).toBeLessThanOrEqual(r.wall + 1e-6);
      expect(r.plays, `seed ${seed}`).toBeLessThanOrEqual(Math.floor(r.seconds / (0.8 * PAGE - 0.05)));
    }
  });
});

// Precedence (takeover > the screen's own assignment > its groups in the member's order) and the agenda
// stepped over the same resolver.
import { describe, expect, it } from 'vitest';
import type { ScreenAssignment } from './api/screens';
import {
  agendaOf,
  contentOfInputs,
  deviceInputs,
  type ResolutionInputs,
  resolvePlaying,
  resolveScreen,
  type TakeoverWindow,
} from './screen-schedule';

const at = (iso: string) => Date.parse(iso);
const playlist = (playlistId: string): ScreenAssignment => ({ kind: 'playlist', playlistId });
const file = (fileId: string): ScreenAssignment => ({ kind: 'file', fileId });
const none: ScreenAssignment = { kind: 'none' };
const schedule = (parts: Array<[number[], string, string, string]>, dflt: string | null = null): ScreenAssignment => ({
  kind: 'schedule',
  schedule: {
    parts: parts.map(([days, start, end, playlistId]) => ({ days, start, end, playlistId })),
    defaultPlaylistId: dflt,
  },
});
const inputs = (over: Partial<ResolutionInputs>): ResolutionInputs => ({
  timeZone: 'Asia/Tokyo',
  assignment: none,
  groups: [],
  takeovers: [],
  ...over,
});
const message = (id: string, startsAt: number, endsAt: number | null): TakeoverWindow => ({
  id,
  show: { kind: 'message', title: '地震', body: '落ち着いて避難してください' },
  startsAt,
  endsAt,
});
// 2026-11-23 is a Monday
const MON_10_JST = at('2026-11-23T01:00:00Z');

describe('precedence', () => {
  it('takeover > the screen own assignment > its groups in the member order, with the rule that won', () => {
    const base = inputs({
      assignment: playlist('pl-own'),
      groups: [
        { id: 'g-first', assignment: playlist('pl-first') },
        { id: 'g-second', assignment: playlist('pl-second') },
      ],
    });
    expect(resolveScreen(base, MON_10_JST)).toEqual({
      playing: { kind: 'playlist', playlistId: 'pl-own' },
      because: { rule: 'screen' },
    });
    const groupsOnly = { ...base, assignment: none };
    expect(resolveScreen(groupsOnly, MON_10_JST)).toEqual({
      playing: { kind: 'playlist', playlistId: 'pl-first' },
      because: { rule: 'group', groupId: 'g-first' },
    });
    // the member's order decides, not the order of creation
    const reordered = { ...groupsOnly, groups: [...groupsOnly.groups].reverse() };
    expect(resolveScreen(reordered, MON_10_JST).because).toEqual({ rule: 'group', groupId: 'g-second' });
    const taken = { ...base, takeovers: [message('t-1', MON_10_JST - 1000, MON_10_JST + 1000)] };
    expect(resolveScreen(taken, MON_10_JST)).toEqual({
      playing: { kind: 'message', title: '地震', body: '落ち着いて避難してください' },
      because: { rule: 'takeover', takeoverId: 't-1' },
    });
    expect(resolveScreen(inputs({}), MON_10_JST)).toEqual({ playing: { kind: 'none' }, because: { rule: 'none' } });
  });

  it('a schedule that plays nothing at that hour falls through to the groups; the old resolver is the inner step', () => {
    const own = schedule([[[1, 2, 3, 4, 5], '09:00', '17:00', 'pl-office']]);
    const i = inputs({ assignment: own, groups: [{ id: 'g', assignment: file('f-night') }] });
    expect(resolveScreen(i, MON_10_JST).because).toEqual({ rule: 'screen' });
    const mon18 = at('2026-11-23T09:00:00Z');
    expect(resolveScreen(i, mon18)).toEqual({
      playing: { kind: 'file', fileId: 'f-night' },
      because: { rule: 'group', groupId: 'g' },
    });
    expect(resolvePlaying(own, 'Asia/Tokyo', mon18)).toEqual({ kind: 'none' });
  });

  it('weekdays and a group schedule crossing midnight, in the screen zone', () => {
    // Friday 22:00-02:00 in a group: Saturday 01:00 still plays it; Saturday 02:00 does not
    const g = schedule([[[5], '22:00', '02:00', 'pl-late']]);
    const i = inputs({ groups: [{ id: 'g-late', assignment: g }] });
    expect(resolveScreen(i, at('2026-11-27T16:00:00Z')).because).toEqual({ rule: 'group', groupId: 'g-late' }); // Sat 01:00 JST
    expect(resolveScreen(i, at('2026-11-27T17:00:00Z')).because).toEqual({ rule: 'none' }); // Sat 02:00 JST
    expect(resolveScreen(i, at('2026-11-26T16:00:00Z')).because).toEqual({ rule: 'none' }); // Fri 01:00 JST
    // the same instants in Paris are other wall-clock hours: the screen's zone decides
    const paris = { ...i, timeZone: 'Europe/Paris' };
    expect(resolveScreen(paris, at('2026-11-27T16:00:00Z')).because).toEqual({ rule: 'none' }); // Fri 17:00 Paris
    expect(resolveScreen(paris, at('2026-11-28T00:30:00Z')).because).toEqual({ rule: 'group', groupId: 'g-late' }); // Sat 01:30
  });

  it('a takeover holds from its start included to its end excluded; open-ended ones hold until ended', () => {
    const start = MON_10_JST;
    const end = start + 15 * 60_000;
    const i = inputs({ assignment: playlist('pl-own'), takeovers: [message('t', start, end)] });
    expect(resolveScreen(i, start - 1).because).toEqual({ rule: 'screen' });
    expect(resolveScreen(i, start).because).toEqual({ rule: 'takeover', takeoverId: 't' });
    expect(resolveScreen(i, end - 1).because).toEqual({ rule: 'takeover', takeoverId: 't' });
    expect(resolveScreen(i, end).because).toEqual({ rule: 'screen' });
    const open = inputs({ takeovers: [message('t-open', start, null)] });
    expect(resolveScreen(open, start + 365 * 86_400_000).because).toEqual({ rule: 'takeover', takeoverId: 't-open' });
    // of two (an offline copy), the later start wins
    const two = inputs({
      takeovers: [
        message('a', start, null),
        { ...message('b', start + 5, end), show: { kind: 'file', fileId: 'f-alert' } },
      ],
    });
    expect(resolveScreen(two, start + 10).playing).toEqual({ kind: 'file', fileId: 'f-alert' });
    expect(resolveScreen(two, end).because).toEqual({ rule: 'takeover', takeoverId: 'a' });
  });

  it('names every playlist and file the inputs may play', () => {
    const i = inputs({
      assignment: playlist('p1'),
      groups: [{ id: 'g', assignment: schedule([[[1], '09:00', '10:00', 'p2']], 'p3') }],
      takeovers: [{ id: 't', show: { kind: 'file', fileId: 'f1' }, startsAt: 0, endsAt: null }],
    });
    expect(contentOfInputs(i)).toEqual({ playlistIds: ['p1', 'p2', 'p3'], fileIds: ['f1'] });
  });
});

describe('a display resolving its manifest', () => {
  it('ends a takeover on time by itself, offline, from the end in its manifest; an older manifest plays its own', () => {
    const manifest = {
      timeZone: 'Asia/Tokyo',
      assignment: playlist('pl-own'),
      groups: [{ id: 'g', assignment: playlist('pl-group') }],
      takeovers: [
        {
          id: 't',
          show: { kind: 'message' as const, title: '休業', body: '' },
          startsAt: '2026-11-23T01:00:00.000Z',
          endsAt: '2026-11-23T01:30:00.000Z',
        },
      ],
    };
    const i = deviceInputs(manifest);
    expect(resolveScreen(i, at('2026-11-23T01:29:59Z')).because).toEqual({ rule: 'takeover', takeoverId: 't' });
    expect(resolveScreen(i, at('2026-11-23T01:30:00Z')).because).toEqual({ rule: 'screen' });
    expect(resolveScreen({ ...i, assignment: none }, at('2026-11-23T01:30:00Z')).because).toEqual({
      rule: 'group',
      groupId: 'g',
    });
    const older = deviceInputs({ timeZone: 'Asia/Tokyo', assignment: playlist('pl-own') });
    expect(resolveScreen(older, MON_10_JST).playing).toEqual({ kind: 'playlist', playlistId: 'pl-own' });
  });
});

describe('agenda', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const view = (a: ReturnType<typeof agendaOf>) =>
    a.entries.map((e) => [iso(e.from), iso(e.to), e.because.rule === 'group' ? e.because.groupId : e.because.rule]);

  it('steps over day parts across midnight and over a takeover, with gaps where nothing plays', () => {
    // Monday 00:00 JST to Wednesday 00:00 JST
    const from = at('2026-11-22T15:00:00Z');
    const to = at('2026-11-24T15:00:00Z');
    const i = inputs({
      assignment: schedule([[[1, 2], '09:00', '17:00', 'pl-office']]),
      groups: [{ id: 'g-night', assignment: schedule([[[1], '22:00', '02:00', 'pl-night']]) }],
      takeovers: [message('t', at('2026-11-24T02:00:00Z'), at('2026-11-24T02:30:00Z'))], // Tue 11:00-11:30 JST
    });
    expect(view(agendaOf(i, from, to))).toEqual([
      ['2026-11-22T15:00:00.000Z', '2026-11-23T00:00:00.000Z', 'none'], // Mon 00:00-09:00: a gap
      ['2026-11-23T00:00:00.000Z', '2026-11-23T08:00:00.000Z', 'screen'], // 09:00-17:00
      ['2026-11-23T08:00:00.000Z', '2026-11-23T13:00:00.000Z', 'none'], // 17:00-22:00
      ['2026-11-23T13:00:00.000Z', '2026-11-23T17:00:00.000Z', 'g-night'], // 22:00-02:00 Tuesday
      ['2026-11-23T17:00:00.000Z', '2026-11-24T00:00:00.000Z', 'none'],
      ['2026-11-24T00:00:00.000Z', '2026-11-24T02:00:00.000Z', 'screen'],
      ['2026-11-24T02:00:00.000Z', '2026-11-24T02:30:00.000Z', 'takeover'],
      ['2026-11-24T02:30:00.000Z', '2026-11-24T08:00:00.000Z', 'screen'],
      ['2026-11-24T08:00:00.000Z', '2026-11-24T15:00:00.000Z', 'none'],
    ]);
  });

  it('a day part moves with daylight saving in the screen zone (Paris, 2026-03-29)', () => {
    const i = inputs({ timeZone: 'Europe/Paris', assignment: schedule([[[0, 1], '09:00', '10:00', 'pl']]) });
    const a = agendaOf(i, at('2026-03-28T12:00:00Z'), at('2026-03-30T12:00:00Z'));
    const played = a.entries.filter((e) => e.because.rule === 'screen').map((e) => [iso(e.from), iso(e.to)]);
    expect(played).toEqual([
      ['2026-03-29T07:00:00.000Z', '2026-03-29T08:00:00.000Z'], // Sunday 09:00 CEST
      ['2026-03-30T07:00:00.000Z', '2026-03-30T08:00:00.000Z'],
    ]);
  });

  it('names licence ends of bought content that plays then, and a bought file alone becomes a gap', () => {
    const from = at('2026-11-23T00:00:00Z');
    const to = from + 7 * 86_400_000;
    const ends = from + 2 * 86_400_000;
    const alone = agendaOf(inputs({ assignment: file('f-bought') }), from, to, {
      licenceEnds: [{ fileId: 'f-bought', endsAt: ends }],
    });
    expect(alone.licenceEnds).toEqual([{ fileId: 'f-bought', at: ends }]);
    expect(alone.entries.map((e) => [e.from, e.to, e.playing.kind, e.stopped])).toEqual([
      [from, ends, 'file', []],
      [ends, to, 'none', ['f-bought']],
    ]);
    const inPlaylist = agendaOf(inputs({ assignment: playlist('pl') }), from, to, {
      licenceEnds: [
        { fileId: 'f-bought', endsAt: ends },
        { fileId: 'f-elsewhere', endsAt: ends },
      ],
      playlistFiles: new Map([['pl', ['f-own', 'f-bought']]]),
    });
    expect(inPlaylist.licenceEnds).toEqual([{ fileId: 'f-bought', at: ends }]);
    expect(inPlaylist.entries.map((e) => [e.from, e.to, e.playing.kind, e.stopped])).toEqual([
      [from, ends, 'playlist', []],
      [ends, to, 'playlist', ['f-bought']],
    ]);
  });
});

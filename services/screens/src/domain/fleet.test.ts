import type { ScreenAssignment, TakeoverContent } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { concerns, contentOfTakeover, inputsOf, orderGroups, stillRunning, type TakeoverRule } from './fleet';

const playlist = (playlistId: string): ScreenAssignment => ({ kind: 'playlist', playlistId });
const group = (id: string, createdAt: string, assignment = playlist(`p-${id}`)) => ({
  _id: id,
  createdAt: new Date(createdAt),
  assignment,
});
const takeover = (id: string, over: Partial<TakeoverRule> = {}): TakeoverRule => ({
  id,
  target: { kind: 'all' },
  content: { kind: 'file', fileId: `f-${id}` },
  startsAt: new Date('2030-01-01T00:00:00Z'),
  endsAt: null,
  ...over,
});
const NOW = Date.parse('2030-01-01T12:00:00Z');

describe('fleet precedence', () => {
  it("puts the fleet's order first, then the groups it does not name, oldest first, then by id", () => {
    const groups = [
      group('d', '2030-01-04T00:00:00Z'),
      group('c', '2030-01-01T00:00:00Z'),
      group('b', '2030-01-02T00:00:00Z'),
      group('a', '2030-01-01T00:00:00Z'),
    ];
    expect(orderGroups(groups, ['d', 'b']).map((g) => g._id)).toEqual(['d', 'b', 'a', 'c']);
    expect(orderGroups(groups, []).map((g) => g._id)).toEqual(['a', 'c', 'b', 'd']);
    // an id in the order that names no group changes nothing, and the input is left as it was
    expect(orderGroups(groups, ['gone', 'c']).map((g) => g._id)).toEqual(['c', 'a', 'b', 'd']);
    expect(groups.map((g) => g._id)).toEqual(['d', 'c', 'b', 'a']);
  });

  it('a takeover concerns every screen of its owner, or the screens of its groups only', () => {
    const some = { target: { kind: 'groups' as const, groupIds: ['g1', 'g2'] } };
    expect(concerns({ target: { kind: 'all' } }, {})).toBe(true);
    expect(concerns(some, { groupIds: ['g2'] })).toBe(true);
    expect(concerns(some, { groupIds: ['g3'] })).toBe(false);
    expect(concerns(some, {})).toBe(false);
  });

  it('a takeover runs until its end (excluded) or until ended', () => {
    expect(stillRunning({ endsAt: null }, NOW)).toBe(true);
    expect(stillRunning({ endsAt: new Date(NOW + 1) }, NOW)).toBe(true);
    expect(stillRunning({ endsAt: new Date(NOW) }, NOW)).toBe(false);
  });

  it('announces the file a takeover shows, and no content for a message', () => {
    const message: TakeoverContent = { kind: 'message', title: 'Closed', body: 'Back at 2' };
    expect(contentOfTakeover({ kind: 'file', fileId: 'f1' })).toEqual({ playlistIds: [], fileIds: ['f1'] });
    expect(contentOfTakeover(message)).toEqual({ playlistIds: [], fileIds: [] });
    // a disaster alert names its rule's file (its displays may read it), none without one
    const alert = { kind: 'alert', fileId: 'f2' } as unknown as Parameters<typeof contentOfTakeover>[0];
    expect(contentOfTakeover(alert)).toEqual({ playlistIds: [], fileIds: ['f2'] });
    expect(contentOfTakeover({ ...alert, fileId: undefined } as typeof alert)).toEqual({
      playlistIds: [],
      fileIds: [],
    });
  });

  it("resolves a screen with its own assignment, its known groups in the owner's order, and the takeovers that concern it and run", () => {
    const groupsById = new Map([
      ['g1', group('g1', '2030-01-01T00:00:00Z')],
      ['g2', group('g2', '2030-01-02T00:00:00Z')],
    ]);
    const fleet = {
      order: ['g2', 'g1'],
      running: [
        takeover('all'),
        takeover('ended', { endsAt: new Date(NOW - 1) }),
        takeover('other', { target: { kind: 'groups', groupIds: ['g9'] } }),
        takeover('mine', {
          target: { kind: 'groups', groupIds: ['g1'] },
          content: { kind: 'message', title: 'Hi', body: '' },
          endsAt: new Date(NOW + 60_000),
        }),
      ],
    };
    const screen = { timeZone: 'Asia/Tokyo', assignment: playlist('own'), groupIds: ['g1', 'deleted', 'g2'] };
    expect(inputsOf(screen, fleet, groupsById, NOW)).toEqual({
      timeZone: 'Asia/Tokyo',
      assignment: playlist('own'),
      groups: [
        { id: 'g2', assignment: playlist('p-g2') },
        { id: 'g1', assignment: playlist('p-g1') },
      ],
      takeovers: [
        {
          id: 'all',
          show: { kind: 'file', fileId: 'f-all' },
          startsAt: Date.parse('2030-01-01T00:00:00Z'),
          endsAt: null,
        },
        {
          id: 'mine',
          show: { kind: 'message', title: 'Hi', body: '' },
          startsAt: Date.parse('2030-01-01T00:00:00Z'),
          endsAt: NOW + 60_000,
        },
      ],
    });
  });
});

import { ALERT_AFTER_MINUTES_DEFAULT, type OpeningHours, type ScreenAssignment } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import {
  givenWith,
  groupsOfScreen,
  playlistFilesAt,
  sameHours,
  settingsOf,
  type SettingGroup,
} from './screen-settings';

const playlist = (playlistId: string): ScreenAssignment => ({ kind: 'playlist', playlistId });
const weekdays: OpeningHours = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }];
const sundays: OpeningHours = [{ days: [0], start: '10:00', end: '11:00' }];
const group = (id: string, over: Partial<SettingGroup> = {}): SettingGroup => ({
  _id: id,
  createdAt: new Date('2030-01-01T00:00:00Z'),
  assignment: playlist(`p-${id}`),
  ...over,
});

describe("a screen's settings", () => {
  const byId = new Map([
    ['quiet', group('quiet', { alertAfterMinutes: 30 })],
    ['shop', group('shop', { openingHours: weekdays, alertAfterMinutes: 10 })],
    ['church', group('church', { openingHours: sundays, alertAfterMinutes: 20 })],
  ]);

  it("takes its groups that exist, in the owner's order", () => {
    const groups = groupsOfScreen({ groupIds: ['church', 'gone', 'shop'] }, byId, ['shop', 'church']);
    expect(groups.map((g) => g._id)).toEqual(['shop', 'church']);
    expect(groupsOfScreen({}, byId, [])).toEqual([]);
  });

  it("keeps its own hours, else its first group's with hours; the smallest threshold of its groups", () => {
    const ordered = groupsOfScreen({ groupIds: ['quiet', 'church', 'shop'] }, byId, ['quiet', 'church', 'shop']);
    expect(settingsOf({}, ordered)).toEqual({ rotation: 0, openingHours: sundays, alertAfterMinutes: 10 });
    expect(settingsOf({ rotation: 90, openingHours: weekdays }, ordered)).toMatchObject({
      rotation: 90,
      openingHours: weekdays,
    });
    // outside any group: always open, the default threshold (a group without one counts as the default)
    expect(settingsOf({}, [])).toEqual({
      rotation: 0,
      openingHours: null,
      alertAfterMinutes: ALERT_AFTER_MINUTES_DEFAULT,
    });
    expect(settingsOf({}, [group('plain')]).alertAfterMinutes).toBe(ALERT_AFTER_MINUTES_DEFAULT);
  });

  it('is given its groups’ assignments in order, and the hours in force in its zone', () => {
    expect(givenWith({ timeZone: 'Europe/Rome' }, ['church', 'shop'], byId, ['shop'])).toEqual({
      groups: [playlist('p-shop'), playlist('p-church')],
      hours: { openingHours: weekdays, timeZone: 'Europe/Rome' },
    });
  });

  it('judges hours alike when they open at the same instants (a zone matters only to hours)', () => {
    expect(sameHours({ openingHours: null, timeZone: 'UTC' }, { openingHours: null, timeZone: 'Asia/Tokyo' })).toBe(
      true,
    );
    expect(sameHours({ openingHours: weekdays, timeZone: 'UTC' }, { openingHours: null, timeZone: 'UTC' })).toBe(false);
    expect(
      sameHours({ openingHours: weekdays, timeZone: 'UTC' }, { openingHours: weekdays, timeZone: 'Asia/Tokyo' }),
    ).toBe(false);
    expect(
      sameHours({ openingHours: weekdays, timeZone: 'UTC' }, { openingHours: [...weekdays], timeZone: 'UTC' }),
    ).toBe(true);
  });

  it("reads a playlist's files from its newest version in force, else its first", () => {
    const versions = [
      { from: 100, fileIds: ['a'] },
      { from: 200, fileIds: ['a', 'b'] },
    ];
    expect(playlistFilesAt(versions, 150)).toEqual(['a']);
    expect(playlistFilesAt(versions, 200)).toEqual(['a', 'b']);
    expect(playlistFilesAt(versions, 50)).toEqual(['a', 'b']);
    expect(playlistFilesAt([], 50)).toEqual([]);
  });
});

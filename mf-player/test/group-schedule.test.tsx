// @vitest-environment jsdom
// A group's weekly schedule on the fleet page (groups, edited in the browser as a screen's is): a group
// that plays a schedule shows its day parts and saves them changed; a group that plays nothing is given one; the
// words are the reader's.
import { PlaylistList, Screen, ScreenGroupList } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { GroupsSection } from '../src/features/fleet/components/groups-section';
import { allByTestId, button, choose, click, json, net, render, type, setupDom } from './dom-harness';

const dom = setupDom();
const iso = '2026-11-27T10:00:00.000Z';
const playlists = PlaylistList.parse(
  ['Lunch', 'Evening'].map((name, i) => ({
    id: `pl-${i}`,
    userId: 'me',
    name,
    description: null,
    itemCount: 2,
    createdAt: iso,
    updatedAt: iso,
  })),
);
const screen: Screen = Screen.parse({
  id: 's1',
  name: 'Lobby',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'none' },
  online: false,
  lastSeenAt: null,
  nowPlaying: null,
  screenSize: null,
  appVersion: null,
  pairedAt: iso,
  rotation: 0,
  openingHours: null,
});
const groupPlaying = (assignment: unknown) =>
  ScreenGroupList.parse([
    {
      id: 'g1',
      name: 'Shops',
      screenIds: ['s1'],
      assignment,
      rank: 0,
      createdAt: iso,
      openingHours: null,
      alertAfterMinutes: 5,
    },
  ]);
const puts = () => net.calls.filter((c) => c.method === 'PUT' && c.path === '/api/screens/groups/g1');

function serveFleet() {
  net.serve = ({ method, path, body }) => {
    if (path === '/api/playlists') return json(playlists);
    if (method === 'PUT' && path === '/api/screens/groups/g1')
      return json({ ...groupPlaying({ kind: 'none' })[0], ...(body as object) });
    return undefined;
  };
}
const kindSelect = () => document.querySelector<HTMLSelectElement>('#fleet-group-g1-plays');

describe('a group’s weekly schedule', () => {
  it('shows the day parts of a group that plays a schedule, and saves them changed', async () => {
    serveFleet();
    const schedule = {
      parts: [{ days: [1, 2, 3, 4, 5], start: '11:00', end: '14:00', playlistId: 'pl-0' }],
      defaultPlaylistId: 'pl-1',
    };
    await render(<GroupsSection groups={groupPlaying({ kind: 'schedule', schedule })} screens={[screen]} />);
    expect(kindSelect()?.value).toBe('schedule');
    expect(allByTestId('day-part')).toHaveLength(1);
    await type(document.querySelector<HTMLInputElement>('#fleet-group-g1-schedule-end-0'), '15:30');
    await click(button('Save'));
    expect(puts().map((c) => (c.body as { assignment: unknown }).assignment)).toEqual([
      {
        kind: 'schedule',
        schedule: { parts: [{ ...schedule.parts[0], end: '15:30' }], defaultPlaylistId: 'pl-1' },
      },
    ]);
  });

  it('gives a schedule to a group that plays nothing, in the reader’s words', async () => {
    serveFleet();
    await dom.i18n().changeLanguage('fr');
    await render(<GroupsSection groups={groupPlaying({ kind: 'none' })} screens={[screen]} />);
    const option = kindSelect()?.querySelector<HTMLOptionElement>('option[value="schedule"]');
    expect(option?.textContent).toBe('Un planning hebdomadaire');
    expect(allByTestId('day-part')).toHaveLength(0);
    await choose(kindSelect(), 'schedule');
    await click(button('Ajouter une plage'));
    expect(allByTestId('day-part')).toHaveLength(1);
    await choose(document.querySelector<HTMLSelectElement>('#fleet-group-g1-schedule-pl-0'), 'pl-1');
    await click(button('Enregistrer'));
    expect(puts().map((c) => (c.body as { assignment: unknown }).assignment)).toEqual([
      {
        kind: 'schedule',
        schedule: {
          parts: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', playlistId: 'pl-1' }],
          defaultPlaylistId: null,
        },
      },
    ]);
  });

  it('a group taken off its schedule plays nothing', async () => {
    serveFleet();
    const schedule = {
      parts: [{ days: [0], start: '10:00', end: '12:00', playlistId: 'pl-0' }],
      defaultPlaylistId: null,
    };
    await render(<GroupsSection groups={groupPlaying({ kind: 'schedule', schedule })} screens={[screen]} />);
    await choose(kindSelect(), '');
    expect(allByTestId('day-part')).toHaveLength(0);
    await click(button('Save'));
    expect(puts().map((c) => (c.body as { assignment: unknown }).assignment)).toEqual([{ kind: 'none' }]);
  });
});

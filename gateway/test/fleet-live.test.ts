// One fleet change (a bulk change, a group's change, a takeover) reaches every display it names as a change
// of its own screen (the display re-reads its manifest), and never tells a display another screen's id.
import { createEvent, subjects } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { watchKey } from '../src/events';
import { AccessCache, forgetDecisions } from '../src/media-caches';
import { liveSubjects, liveView } from '../src/live';

describe('fleet changes on the live feed', () => {
  it('one event is forwarded to each named screen as a screen change, naming none of them', () => {
    expect(liveSubjects.SCREENS).toContain(subjects.fleetChanged);
    const event = createEvent(subjects.fleetChanged, {
      changeId: 'c-1',
      ownerId: 'u-1',
      changedAt: new Date().toISOString(),
      kind: 'takeover-started',
      screenIds: ['s-1', 's-2', 's-3'],
      takeoverId: 't-1',
      content: { playlistIds: [], fileIds: [] },
    });
    const view = liveView(event);
    expect(view?.keys).toEqual([watchKey.screen('s-1'), watchKey.screen('s-2'), watchKey.screen('s-3')]);
    expect(view?.forwarded).toEqual({ id: event.id, type: subjects.screenChanged, data: {} });
  });
});

describe('fleet changes and the page-image decisions', () => {
  it('drops the decisions of each named display, and only theirs (a group can lose a file)', () => {
    const access = new AccessCache(100);
    for (const screenId of ['s-1', 's-2', 's-3'])
      access.set(`${screenId}:f-1`, { access: 'owner', subject: 'u-1', screenId }, 60_000);
    access.set('u-1:f-1', { access: 'owner', subject: 'u-1' }, 60_000); // the member's own reading
    const event = createEvent(subjects.fleetChanged, {
      changeId: 'c-2',
      ownerId: 'u-1',
      changedAt: new Date().toISOString(),
      kind: 'group-changed',
      screenIds: ['s-1', 's-3'],
      groupId: 'g-1',
      content: { playlistIds: [], fileIds: [] },
    });
    forgetDecisions(access, event);
    expect(access.get('s-1:f-1')).toBeUndefined();
    expect(access.get('s-3:f-1')).toBeUndefined();
    expect(access.get('s-2:f-1')?.screenId).toBe('s-2');
    expect(access.get('u-1:f-1')?.subject).toBe('u-1');
  });
});

// Issue 37: one fleet change (a bulk change, a group's change, a takeover) reaches every display it names as a change
// of its own screen (the display re-reads its manifest), and never tells a display another screen's id.
import { createEvent, subjects } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { watchKey } from '../src/events';
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

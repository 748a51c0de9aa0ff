// What plays when against the real service: a screen's and a group's next 7 days from the same resolver
// the displays run: takeover, the screen's own schedule, its group, gaps, licence ends of bought content.
import { AGENDA_DAYS, wallClock } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { ok, refused } from './fleet-helpers';
import { announcer, eventsHandled, member, pairDisplay, useService } from './helpers';

const svc = useService();

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

interface Entry {
  from: string;
  to: string;
  playing: { kind: string; playlistId?: string };
  because: { rule: string; groupId?: string; takeoverId?: string };
  stopped: string[];
}

describe('agenda', () => {
  it('gives a week of entries and why: takeover, the screen, its group, gaps; and when bought content stops', async () => {
    const owner = member();
    const seller = member();
    const ann = announcer(svc);
    const own = await ann.file(owner.userId, 1, Date.now() - 60_000);
    const bought = await ann.file(seller.userId, 1, Date.now() - 60_000);
    const ownList = await ann.playlist(owner.userId, [own], Date.now() - 60_000);
    const groupList = await ann.playlist(owner.userId, [own, bought], Date.now() - 60_000);
    const licenceEnd = Date.now() + 2 * 86_400_000;
    await ann.purchase(owner.userId, bought, seller.userId, Date.now() - 60_000, licenceEnd);
    await eventsHandled(svc);
    const d = await pairDisplay(svc, owner);
    const other = await pairDisplay(svc, owner, 'Not in the group');
    // its own schedule: every day, one hour starting three hours from now (Tokyo), so the group plays the rest
    const start = (wallClock(Date.now(), 'Asia/Tokyo').minute + 180) % 1440;
    await ok(svc, owner, 'PUT', `/api/screens/${d.screenId}`, {
      assignment: {
        kind: 'schedule',
        schedule: {
          parts: [{ days: [0, 1, 2, 3, 4, 5, 6], start: hhmm(start), end: hhmm(start + 60), playlistId: ownList }],
          defaultPlaylistId: null,
        },
      },
    });
    const g = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Lobby',
      screenIds: [d.screenId],
      assignment: { kind: 'playlist', playlistId: groupList },
    });
    const t = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [g.id] },
      content: { kind: 'message', title: '本日休業', body: '' },
      minutes: 30,
    });

    const agenda = await ok(
      svc,
      owner,
      'GET',
      `/api/screens/${d.screenId}/agenda?from=${encodeURIComponent(t.startedAt)}`,
    );
    const entries = agenda.entries as Entry[];
    expect(agenda.from).toBe(t.startedAt);
    expect(Date.parse(agenda.to) - Date.parse(agenda.from)).toBe(AGENDA_DAYS * 86_400_000);
    expect(entries[0]).toMatchObject({
      from: t.startedAt,
      to: t.endsAt,
      because: { rule: 'takeover', takeoverId: t.id },
    });
    // contiguous from start to end
    for (let i = 1; i < entries.length; i++) expect(entries[i]?.from).toBe(entries[i - 1]?.to);
    expect(entries[entries.length - 1]?.to).toBe(agenda.to);
    // its own hour every day (7 or 8 times in a week), the group otherwise
    const ownHours = entries.filter((e) => e.because.rule === 'screen');
    expect(ownHours.length).toBeGreaterThanOrEqual(7);
    for (const e of ownHours) expect(Date.parse(e.to) - Date.parse(e.from)).toBeLessThanOrEqual(3_600_000);
    expect(entries.filter((e) => e.because.rule === 'group').every((e) => e.because.groupId === g.id)).toBe(true);
    // the bought file stops at its licence's end
    expect(agenda.licenceEnds).toEqual([{ fileId: bought, at: new Date(licenceEnd).toISOString() }]);
    const afterEnd = entries.filter((e) => e.because.rule === 'group' && Date.parse(e.from) >= licenceEnd);
    expect(afterEnd.length).toBeGreaterThan(0);
    for (const e of afterEnd) expect(e.stopped).toEqual([bought]);

    // a screen with nothing at all is one gap
    const empty = await ok(svc, owner, 'GET', `/api/screens/${other.screenId}/agenda`);
    expect(empty.entries.map((e: Entry) => e.because.rule)).toEqual(['none']);

    const group = await ok(
      svc,
      owner,
      'GET',
      `/api/screens/groups/${g.id}/agenda?from=${encodeURIComponent(t.startedAt)}`,
    );
    expect(group.screens.map((s: { screenId: string }) => s.screenId)).toEqual([d.screenId]);
    expect(group.screens[0].entries).toEqual(entries);

    const stranger = member();
    await refused(svc, stranger, 'GET', `/api/screens/${d.screenId}/agenda`, undefined, 404, 'SCREEN_NOT_FOUND');
    await refused(svc, stranger, 'GET', `/api/screens/groups/${g.id}/agenda`, undefined, 404, 'SCREEN_GROUP_NOT_FOUND');
  });
});

// PUT /api/screens/:id checks a changed assignment as the fleet calls do (checkAssignment): a playlist or file that is
// not the member's, deleted, a bought file whose licence ended, or an id nobody announced is refused with its stable
// code and changes nothing (the screen keeps what it plays, no history entry, no screens.screen.changed event); content
// announced a moment after the call started (its event is published after its write) is waited for and accepted.
import { randomUUID } from 'node:crypto';
import { createEvent, subjects } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { eventually, ok, refused, screensEvents, streamSeq } from './fleet-helpers';
import { announcer, call, eventsHandled, member, pairDisplay, useService } from './helpers';

const svc = useService();

const MIN = 60_000;

/** The screen's history entries (screen_assignments, `_id` `<screenId>#<n>`). */
const historyOf = (screenId: string) =>
  svc.server.context.conn
    .collection('screen_assignments')
    .countDocuments({ _id: { $regex: `^${screenId}#` } as never });

/** The screen as its owner's list shows it. */
async function screenOf(owner: { userId: string }, screenId: string) {
  const list = (await ok(svc, owner, 'GET', '/api/screens')) as unknown as Array<{ id: string }>;
  return list.find((s) => s.id === screenId);
}

describe('PUT /api/screens/:id checks what it is given', () => {
  it('refuses content that is not the member’s, deleted, without a live licence, or unknown; nothing changes', async () => {
    const owner = member();
    const stranger = member();
    const ann = announcer(svc);
    const at = Date.now() - 10 * MIN;
    const mine = await ann.file(owner.userId, 2, at);
    const myList = await ann.playlist(owner.userId, [mine], at);
    const theirFile = await ann.file(stranger.userId, 1, at);
    const theirList = await ann.playlist(stranger.userId, [theirFile], at);
    const gone = await ann.file(owner.userId, 1, at);
    await ann.fileDeleted(owner.userId, gone, at + MIN);
    const lapsed = await ann.file(stranger.userId, 1, at);
    await ann.purchase(owner.userId, lapsed, stranger.userId, at, Date.now() - MIN);
    await eventsHandled(svc);

    const { screenId } = await pairDisplay(svc, owner);
    const given = { kind: 'playlist', playlistId: myList };
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment: given });
    const entries = await historyOf(screenId);
    expect(entries).toBeGreaterThan(0);
    const before = await streamSeq(svc);

    const put = (assignment: unknown, status: number, code: string) =>
      refused(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment, name: 'Renamed' }, status, code);
    const made = `pl-${randomUUID()}`;
    const cases: Array<[unknown, string, Record<string, string>]> = [
      [{ kind: 'playlist', playlistId: theirList }, 'PLAYLIST_NOT_FOUND', { playlistId: theirList }],
      [{ kind: 'file', fileId: theirFile }, 'FILE_NOT_FOUND', { fileId: theirFile }],
      [{ kind: 'file', fileId: gone }, 'FILE_NOT_FOUND', { fileId: gone }],
      [{ kind: 'file', fileId: lapsed }, 'FILE_NOT_FOUND', { fileId: lapsed }],
      [
        {
          kind: 'schedule',
          schedule: {
            parts: [{ days: [1], start: '09:00', end: '12:00', playlistId: myList }],
            defaultPlaylistId: made,
          },
        },
        'PLAYLIST_NOT_FOUND',
        { playlistId: made },
      ],
      [{ kind: 'file', fileId: `f-${randomUUID()}` }, 'FILE_NOT_FOUND', {}],
    ];
    for (const [assignment, code, details] of cases) {
      const body = await put(assignment, 404, code);
      expect(body.details).toMatchObject(details);
    }

    // nothing changed: the old assignment and name, no history entry, no event for the screen but the next change's
    const screen = await screenOf(owner, screenId);
    expect(screen).toMatchObject({ assignment: given, name: 'Display' });
    expect(await historyOf(screenId)).toBe(entries);
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { name: 'Next' });
    const changed = await eventually(async () => {
      const events = (await screensEvents(svc, before)).filter(
        (e) => e.subject === 'screens.screen.changed.v1' && e.data.screenId === screenId,
      );
      return events.length > 0 ? events : undefined;
    });
    expect(changed).toHaveLength(1);
    expect(changed[0]?.data).toMatchObject({ playlistIds: [myList], fileIds: [] });
    expect(await historyOf(screenId)).toBe(entries);
  });

  it('accepts a playlist announced after the call started (its event follows its write)', async () => {
    const owner = member();
    const ann = announcer(svc);
    const fileId = await ann.file(owner.userId, 1, Date.now() - MIN);
    await eventsHandled(svc);
    const { screenId, device } = await pairDisplay(svc, owner);
    const playlistId = `pl-${randomUUID()}`;
    const reads = svc.server.context.data.content.reads;
    const answer = call(svc, owner, 'PUT', `/api/screens/${screenId}`, {
      assignment: { kind: 'playlist', playlistId },
    });
    // the service has looked for the playlist and not found it; only then is it announced
    await eventually(async () => (svc.server.context.data.content.reads > reads ? true : undefined));
    await svc.server.context.nats.js.publish(
      subjects.playlistSaved,
      JSON.stringify(
        createEvent(subjects.playlistSaved, {
          playlistId,
          ownerId: owner.userId,
          name: 'Just made',
          fileIds: [fileId],
          updatedAt: new Date().toISOString(),
        }),
      ),
    );
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.assignment).toEqual({ kind: 'playlist', playlistId });
    const m = await ok(svc, { device }, 'GET', '/api/screens/device/me');
    expect(m.assignment).toEqual({ kind: 'playlist', playlistId });
  });
});

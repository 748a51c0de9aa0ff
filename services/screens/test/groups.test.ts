// Groups of screens against the real service (FerretDB, NATS): members, assignment, precedence order,
// what a display receives (its groups' assignments in order, never another screen's ids), one event per change,
// proof of play of a group's content, and every refusal with its stable code (each changes nothing).
import { randomUUID } from 'node:crypto';
import { SCREEN_GROUPS_MAX } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { eventually, fleetEvents, manifest, ok, refused, screensEvents, streamSeq } from './fleet-helpers';
import { announcer, eventsHandled, member, pairDisplay, postPlays, useService } from './helpers';

const svc = useService();

async function content(ownerId: string) {
  const a = announcer(svc);
  const fileId = await a.file(ownerId, 3, Date.now() - 60_000);
  const playlistId = await a.playlist(ownerId, [fileId], Date.now() - 60_000);
  const other = await a.playlist(ownerId, [fileId], Date.now() - 60_000);
  await eventsHandled(svc);
  return { fileId, playlistId, other };
}

const groupsOf = async (owner: { userId: string }) => ok(svc, owner, 'GET', '/api/screens/groups');

describe('groups', () => {
  it('a group gives its members its assignment; the display gets its groups in the member order, no other screen', async () => {
    const owner = member();
    const { playlistId, other } = await content(owner.userId);
    const a = await pairDisplay(svc, owner, 'Lobby');
    const b = await pairDisplay(svc, owner, 'Cafe');
    const c = await pairDisplay(svc, owner, 'Office');
    const before = await streamSeq(svc);
    const lobby = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Ground floor',
      screenIds: [a.screenId, b.screenId],
      assignment: { kind: 'playlist', playlistId },
    });
    expect(lobby).toMatchObject({ name: 'Ground floor', rank: 0, assignment: { kind: 'playlist', playlistId } });
    expect([...(lobby.screenIds as string[])].sort()).toEqual([a.screenId, b.screenId].sort());
    const all = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Everywhere',
      screenIds: [a.screenId, c.screenId],
      assignment: { kind: 'playlist', playlistId: other },
    });
    // one event per change, naming the screens whose inputs changed
    const events = await fleetEvents(svc, owner.userId, before, 2);
    expect(events.map((e) => [e.data.kind, e.data.groupId])).toEqual([
      ['group-created', lobby.id],
      ['group-created', all.id],
    ]);
    expect([...((events[0]?.data.screenIds ?? []) as string[])].sort()).toEqual([a.screenId, b.screenId].sort());
    expect((await screensEventsOfKind(before, 'screens.screen.changed.v1')).length).toBe(0);

    const m = await manifest(svc, a.device);
    expect(m.groups).toEqual([
      { id: lobby.id, assignment: { kind: 'playlist', playlistId } },
      { id: all.id, assignment: { kind: 'playlist', playlistId: other } },
    ]);
    // a device sees its own inputs only: no name, no member, no other screen's id
    const text = JSON.stringify(m);
    for (const id of [b.screenId, c.screenId]) expect(text).not.toContain(id);
    expect(text).not.toContain('Ground floor');
    expect((await manifest(svc, c.device)).groups).toEqual([
      { id: all.id, assignment: { kind: 'playlist', playlistId: other } },
    ]);

    // the member's order decides precedence
    const reordered = await ok(svc, owner, 'PUT', '/api/screens/groups/order', { groupIds: [all.id] });
    expect(reordered.map((g: { id: string; rank: number }) => [g.id, g.rank])).toEqual([
      [all.id, 0],
      [lobby.id, 1],
    ]);
    expect(((await manifest(svc, a.device)).groups as Array<{ id: string }>).map((g) => g.id)).toEqual([
      all.id,
      lobby.id,
    ]);

    // rename, replace members, delete
    const renamed = await ok(svc, owner, 'PUT', `/api/screens/groups/${lobby.id}`, {
      name: 'Entrance',
      screenIds: [b.screenId],
    });
    expect(renamed).toMatchObject({ name: 'Entrance', screenIds: [b.screenId] });
    expect(((await manifest(svc, a.device)).groups as Array<{ id: string }>).map((g) => g.id)).toEqual([all.id]);
    await ok(svc, owner, 'DELETE', `/api/screens/groups/${all.id}`);
    expect((await manifest(svc, a.device)).groups).toEqual([]);
    expect((await groupsOf(owner)).map((g: { id: string }) => g.id)).toEqual([lobby.id]);
  });

  it('refuses another member’s screen or group, missing content, bad names, duplicates and too many groups, changing nothing', async () => {
    const owner = member();
    const stranger = member();
    const { playlistId } = await content(owner.userId);
    const strangers = await content(stranger.userId);
    const mine = await pairDisplay(svc, owner);
    const theirs = await pairDisplay(svc, stranger);
    const g = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'Shops', screenIds: [mine.screenId] });
    const theirGroup = await ok(svc, stranger, 'POST', '/api/screens/groups', { name: 'Theirs' });
    const snapshot = async () => [await groupsOf(owner), await groupsOf(stranger), await manifest(svc, mine.device)];
    const before = await snapshot();

    const post = (body: unknown, status: number, code: string) =>
      refused(svc, owner, 'POST', '/api/screens/groups', body, status, code);
    await post({ name: 'X', screenIds: [mine.screenId, theirs.screenId] }, 404, 'SCREEN_NOT_FOUND');
    await post(
      { name: 'X', assignment: { kind: 'playlist', playlistId: `pl-${randomUUID()}` } },
      404,
      'PLAYLIST_NOT_FOUND',
    );
    await post(
      { name: 'X', assignment: { kind: 'playlist', playlistId: strangers.playlistId } },
      404,
      'PLAYLIST_NOT_FOUND',
    );
    await post({ name: 'X', assignment: { kind: 'file', fileId: strangers.fileId } }, 404, 'FILE_NOT_FOUND');
    const empty = await post({ name: '   ' }, 400, 'VALIDATION');
    expect(empty.issues[0].key).toBe('validation.groupNameRequired');
    const long = await post({ name: 'x'.repeat(61) }, 400, 'VALIDATION');
    expect(long.issues[0].key).toBe('validation.groupNameTooLong');
    await post({ name: 'ＳＨＯＰＳ' }, 409, 'SCREEN_GROUP_NAME_TAKEN'); // the same name, other width and case
    await refused(
      svc,
      owner,
      'PUT',
      `/api/screens/groups/${theirGroup.id}`,
      { name: 'Mine now' },
      404,
      'SCREEN_GROUP_NOT_FOUND',
    );
    await refused(
      svc,
      owner,
      'DELETE',
      `/api/screens/groups/${theirGroup.id}`,
      undefined,
      404,
      'SCREEN_GROUP_NOT_FOUND',
    );
    await refused(
      svc,
      owner,
      'PUT',
      '/api/screens/groups/order',
      { groupIds: [theirGroup.id, g.id] },
      404,
      'SCREEN_GROUP_NOT_FOUND',
    );
    await refused(
      svc,
      owner,
      'PUT',
      `/api/screens/groups/${g.id}`,
      { name: 'Renamed', screenIds: [theirs.screenId] },
      404,
      'SCREEN_NOT_FOUND',
    );
    await refused(
      svc,
      owner,
      'PUT',
      `/api/screens/groups/${g.id}`,
      {
        name: 'Renamed',
        assignment: {
          kind: 'schedule',
          schedule: { parts: [{ days: [1], start: '09:00', end: '09:00', playlistId }], defaultPlaylistId: null },
        },
      },
      400,
      'SCHEDULE_INVALID',
    );
    expect(await snapshot()).toEqual(before);

    // the limit
    for (let i = (await groupsOf(owner)).length; i < SCREEN_GROUPS_MAX; i++) {
      await ok(svc, owner, 'POST', '/api/screens/groups', { name: `G${i}` });
    }
    await post({ name: 'One too many' }, 409, 'SCREEN_GROUP_LIMIT');
    expect((await groupsOf(owner)).length).toBe(SCREEN_GROUPS_MAX);
  });

  it('a screen’s own change announces what its device may read: its own content, its groups’ and its takeovers’', async () => {
    const owner = member();
    const { fileId, playlistId, other } = await content(owner.userId);
    const d = await pairDisplay(svc, owner);
    await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Hall',
      screenIds: [d.screenId],
      assignment: { kind: 'playlist', playlistId },
    });
    await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'file', fileId },
      minutes: 5,
    });
    const before = await streamSeq(svc);
    await ok(svc, owner, 'PUT', `/api/screens/${d.screenId}`, { assignment: { kind: 'playlist', playlistId: other } });
    const changed = await eventually(async () => {
      const [e] = await screensEventsOfKind(before, 'screens.screen.changed.v1');
      return e;
    });
    expect(changed.data).toMatchObject({ screenId: d.screenId, playlistIds: [other, playlistId], fileIds: [fileId] });
  });

  it('a file of a group’s playlist counts as given: proof of play accepts it, and refuses it after the screen leaves', async () => {
    const owner = member();
    const { fileId, playlistId } = await content(owner.userId);
    const d = await pairDisplay(svc, owner);
    const g = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Window',
      screenIds: [d.screenId],
      assignment: { kind: 'playlist', playlistId },
    });
    const play = (startedAt: number) => ({
      id: randomUUID(),
      fileId,
      page: 1,
      startedAt: new Date(startedAt).toISOString(),
      seconds: 5,
    });
    const sent = (
      await postPlays(svc, d.device, {
        plays: [play(Date.now())],
      })
    ).body;
    expect(sent).toMatchObject({ accepted: 1, refused: 0 });
    await ok(svc, owner, 'PUT', `/api/screens/groups/${g.id}`, { screenIds: [] });
    const left = Date.now();
    try {
      // online all along (a heartbeat every 30 s of its clock), so only what it was given counts
      for (const offset of [30_000, 60_000, 90_000]) {
        svc.clock.offsetMs = left + offset - Date.now();
        await ok(svc, { device: d.device }, 'POST', '/api/screens/device/heartbeat', {
          appVersion: 'test',
          screenSize: { width: 1920, height: 1080 },
          nowPlaying: null,
        });
      }
      svc.clock.offsetMs = left + 95_000 - Date.now();
      const later = (
        await postPlays(svc, d.device, {
          plays: [play(left + 88_000)],
        })
      ).body;
      expect(later).toMatchObject({ accepted: 0, refusedByReason: { 'not-assigned': 1 } });
    } finally {
      svc.clock.offsetMs = 0;
    }
  });
});

async function screensEventsOfKind(afterSeq: number, subject: string) {
  return (await screensEvents(svc, afterSeq)).filter((e) => e.subject === subject);
}

// One change to many screens against the real service: by hand, by group and by filter; assign, add to and
// remove from a group, time zone, unpair; all or nothing (every refusal changes nothing); one event per change; and a
// change a crash left half-applied is applied again when the service starts.
import { randomUUID } from 'node:crypto';
import { parseEvent } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import type { ChangeDoc } from '../src/data/fleet';
import { resumePendingChanges } from '../src/use-cases/bulk-change';
import { fleetEvents, manifest, ok, refused, screensEvents, streamSeq } from './fleet-helpers';
import { announcer, call, eventsHandled, member, pairDisplay, useService } from './helpers';

const svc = useService();

async function setup(names = ['Shop 1', 'Shop 2', 'Shop 3']) {
  const owner = member();
  const a = announcer(svc);
  const fileId = await a.file(owner.userId, 2, Date.now() - 60_000);
  const playlistId = await a.playlist(owner.userId, [fileId], Date.now() - 60_000);
  await eventsHandled(svc);
  const displays = [];
  for (const name of names) displays.push(await pairDisplay(svc, owner, name));
  return { owner, fileId, playlistId, displays };
}

const screensOf = async (owner: { userId: string }) =>
  (await ok(svc, owner, 'GET', '/api/screens')) as Array<{
    id: string;
    name: string;
    timeZone: string;
    assignment: unknown;
  }>;

describe('bulk changes', () => {
  it('assigns a playlist to chosen screens in one change: one event for all, every manifest follows', async () => {
    const { owner, playlistId, displays } = await setup();
    const before = await streamSeq(svc);
    const ids = displays.map((d) => d.screenId);
    const result = await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'ids', screenIds: ids },
      change: { kind: 'assign', assignment: { kind: 'playlist', playlistId } },
    });
    expect([...result.screenIds].sort()).toEqual([...ids].sort());
    for (const d of displays) {
      expect((await manifest(svc, d.device)).assignment).toEqual({ kind: 'playlist', playlistId });
    }
    const [event] = await fleetEvents(svc, owner.userId, before, 1);
    expect(event?.data).toMatchObject({
      changeId: result.changeId,
      kind: 'assign',
      content: { playlistIds: [playlistId], fileIds: [] },
    });
    expect([...((event?.data.screenIds ?? []) as string[])].sort()).toEqual([...ids].sort());
    const all = await screensEvents(svc, before);
    expect(all.filter((e) => e.data.ownerId === owner.userId).length).toBe(1);
  });

  it('selects by group and by filter on name, status and group; moves screens between groups; sets the zone', async () => {
    const { owner, fileId, displays } = await setup(['Kyoto station', 'Kyoto tower', 'Osaka']);
    const [k1, k2, osaka] = displays as [
      (typeof displays)[number],
      (typeof displays)[number],
      (typeof displays)[number],
    ];
    const g = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'Kansai' });
    const moved = await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'filter', name: 'kyoto' },
      change: { kind: 'add-to-group', groupId: g.id },
    });
    expect([...moved.screenIds].sort()).toEqual([k1.screenId, k2.screenId].sort());
    const [group] = await ok(svc, owner, 'GET', '/api/screens/groups');
    expect([...group.screenIds].sort()).toEqual([k1.screenId, k2.screenId].sort());

    await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'group', groupId: g.id },
      change: { kind: 'assign', assignment: { kind: 'file', fileId } },
    });
    expect((await manifest(svc, k1.device)).assignment).toEqual({ kind: 'file', fileId });
    expect((await manifest(svc, osaka.device)).assignment).toEqual({ kind: 'none' });

    // only k2 is online
    await ok(svc, { device: k2.device }, 'POST', '/api/screens/device/heartbeat', {
      appVersion: 't',
      screenSize: { width: 1, height: 1 },
      nowPlaying: null,
    });
    const online = await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'filter', status: 'online', groupId: g.id },
      change: { kind: 'set-time-zone', timeZone: 'Europe/Paris' },
    });
    expect(online.screenIds).toEqual([k2.screenId]);
    const zones = Object.fromEntries((await screensOf(owner)).map((s) => [s.id, s.timeZone]));
    expect(zones).toEqual({
      [k1.screenId]: 'Asia/Tokyo',
      [k2.screenId]: 'Europe/Paris',
      [osaka.screenId]: 'Asia/Tokyo',
    });

    await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'ids', screenIds: [k1.screenId] },
      change: { kind: 'remove-from-group', groupId: g.id },
    });
    const [after] = await ok(svc, owner, 'GET', '/api/screens/groups');
    expect(after.screenIds).toEqual([k2.screenId]);
  });

  it('unpairs many screens: their devices are refused and each revocation is announced', async () => {
    const { owner, displays } = await setup();
    const [first, second, kept] = displays as [
      (typeof displays)[number],
      (typeof displays)[number],
      (typeof displays)[number],
    ];
    const before = await streamSeq(svc);
    await ok(svc, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'ids', screenIds: [first.screenId, second.screenId] },
      change: { kind: 'unpair' },
    });
    for (const d of [first, second]) {
      expect((await call(svc, { device: d.device }, 'GET', '/api/screens/device/me')).status).toBe(401);
    }
    expect((await call(svc, { device: kept.device }, 'GET', '/api/screens/device/me')).status).toBe(200);
    expect((await screensOf(owner)).map((s) => s.id)).toEqual([kept.screenId]);
    const events = await fleetEvents(svc, owner.userId, before, 1);
    expect(events[0]?.data.kind).toBe('unpair');
    const revoked = (await screensEvents(svc, before)).filter((e) => e.subject === 'screens.screen.revoked.v1');
    expect(revoked.map((e) => e.data.screenId).sort()).toEqual([first.screenId, second.screenId].sort());
    // each one an event its readers accept (the gateway's revocation set, file-conversion's tombstones): an id that
    // is not a UUID was published and then dropped by every parseEvent
    for (const e of revoked) expect(parseEvent(e.envelope).type).toBe('screens.screen.revoked.v1');
  });

  it('is all or nothing: another member’s screen or group, missing content, a bad schedule change no screen', async () => {
    const { owner, playlistId, displays } = await setup();
    const stranger = await setup(['Theirs']);
    const theirGroup = await ok(svc, stranger.owner, 'POST', '/api/screens/groups', { name: 'Theirs' });
    const ids = displays.map((d) => d.screenId);
    const before = await screensOf(owner);
    const seq = await streamSeq(svc);
    const bulk = (body: unknown, status: number, code: string) =>
      refused(svc, owner, 'POST', '/api/screens/bulk', body, status, code);
    const assign = { kind: 'assign', assignment: { kind: 'playlist', playlistId } };
    const foreign = stranger.displays[0]?.screenId as string;
    const res = await bulk(
      { selection: { by: 'ids', screenIds: [...ids, foreign] }, change: assign },
      404,
      'SCREEN_NOT_FOUND',
    );
    expect(res.details).toEqual({ screenIds: [foreign] });
    await bulk(
      { selection: { by: 'ids', screenIds: [...ids, foreign] }, change: { kind: 'unpair' } },
      404,
      'SCREEN_NOT_FOUND',
    );
    await bulk({ selection: { by: 'group', groupId: theirGroup.id }, change: assign }, 404, 'SCREEN_GROUP_NOT_FOUND');
    await bulk(
      { selection: { by: 'ids', screenIds: ids }, change: { kind: 'add-to-group', groupId: theirGroup.id } },
      404,
      'SCREEN_GROUP_NOT_FOUND',
    );
    await bulk(
      {
        selection: { by: 'ids', screenIds: ids },
        change: { kind: 'assign', assignment: { kind: 'playlist', playlistId: stranger.playlistId } },
      },
      404,
      'PLAYLIST_NOT_FOUND',
    );
    await bulk(
      {
        selection: { by: 'ids', screenIds: ids },
        change: { kind: 'assign', assignment: { kind: 'file', fileId: `f-${randomUUID()}` } },
      },
      404,
      'FILE_NOT_FOUND',
    );
    await bulk(
      {
        selection: { by: 'ids', screenIds: ids },
        change: {
          kind: 'assign',
          assignment: {
            kind: 'schedule',
            schedule: {
              parts: [
                { days: [1], start: '09:00', end: '12:00', playlistId },
                { days: [1], start: '11:00', end: '13:00', playlistId },
              ],
              defaultPlaylistId: null,
            },
          },
        },
      },
      400,
      'SCHEDULE_INVALID',
    );
    await bulk(
      { selection: { by: 'ids', screenIds: ids }, change: { kind: 'set-time-zone', timeZone: 'Mars/Olympus' } },
      400,
      'VALIDATION',
    );
    expect(await screensOf(owner)).toEqual(before);
    expect((await screensEvents(svc, seq)).filter((e) => e.data.ownerId === owner.userId)).toEqual([]);
    for (const d of stranger.displays)
      expect((await call(svc, { device: d.device }, 'GET', '/api/screens/device/me')).status).toBe(200);
  });

  it('a change a crash left recorded but unapplied is applied and announced once when the service starts', async () => {
    const { owner, playlistId, displays } = await setup();
    const ids = displays.map((d) => d.screenId);
    // the state a crash leaves after the intent was recorded and one screen written (the others not)
    const first = displays[0] as (typeof displays)[number];
    await ok(svc, owner, 'PUT', `/api/screens/${first.screenId}`, { assignment: { kind: 'playlist', playlistId } });
    const doc: ChangeDoc = {
      _id: randomUUID(),
      ownerId: owner.userId,
      kind: 'assign',
      screenIds: ids,
      change: { kind: 'assign', assignment: { kind: 'playlist', playlistId } },
      at: new Date(),
      doneAt: null,
    };
    await svc.server.context.data.fleet.changes.insert(doc);
    const before = await streamSeq(svc);
    expect(await resumePendingChanges(svc.server.context)).toBeGreaterThanOrEqual(1);
    for (const d of displays)
      expect((await manifest(svc, d.device)).assignment).toEqual({ kind: 'playlist', playlistId });
    const [event] = await fleetEvents(svc, owner.userId, before, 1);
    expect(event?.data.changeId).toBe(doc._id);
    // done: a second start applies nothing of it again
    expect((await svc.server.context.data.fleet.changes.pending()).map((c) => c._id)).not.toContain(doc._id);
  });
});

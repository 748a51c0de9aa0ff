// The device view (second pass) with two instances on the same database and NATS: a change made through A
// is in what B serves as soon as its event arrives (no clock moved, no age waited for), B answers a display's
// manifest and device check from memory (no database query once loaded, If-None-Match included), a pairing through
// A shows in B's fleet view at once, a revocation through A is refused by B, and a restart serves the same manifests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_BACKSTOP_MS } from '../src/data/device-view';
import { screenOfDevice } from '../src/use-cases/device-screen';
import { type Device, eventually, manifest, ok } from './fleet-helpers';
import {
  announcer,
  call,
  eventsHandled,
  type Json,
  member,
  pairDisplay,
  startReplica,
  startService,
  type TestService,
} from './helpers';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  a = await startService();
  b = await startReplica(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** A file and two playlists of the owner, known to both instances' read models. */
async function content(ownerId: string) {
  const ann = announcer(a);
  const fileId = await ann.file(ownerId, 2, Date.now() - 60_000);
  const playlistId = await ann.playlist(ownerId, [fileId], Date.now() - 60_000);
  const other = await ann.playlist(ownerId, [fileId], Date.now() - 60_000);
  await eventsHandled(a);
  await eventsHandled(b);
  return { fileId, playlistId, other };
}

/**
 * The database queries `svc` makes that name any of `ids` (the screens, groups and owner of this test: the view's
 * reads of other tests' events, which share NATS, name none of them), counted from mongoose's operation events.
 */
function countQueries(svc: TestService, ids: string[]) {
  const seen: string[] = [];
  const listener = (op: { collectionName?: string; method?: string; params?: unknown }) => {
    const text = JSON.stringify(op.params ?? null);
    if (ids.some((id) => text.includes(id))) seen.push(`${op.collectionName}.${op.method}`);
  };
  const { conn } = svc.server.context;
  conn.on('operation-start', listener);
  return {
    seen,
    stop: () => {
      conn.off('operation-start', listener);
    },
  };
}

/** The identity the gateway passes for a device's token (what the use cases check). */
const identity = (d: Device) => ({ kind: 'device' as const, ...d, iat: 0 });

/** Until the view has no read by `_id` running (an event's re-read that may still be landing). */
async function settled(svc: TestService): Promise<void> {
  await eventually(async () => (svc.server.context.data.view.reading() === 0 ? true : undefined));
}

/** N rounds of every display's manifest and device check on `svc`: the queries they made (none expected). */
async function queriesOfDisplays(svc: TestService, devices: Device[], ids: string[], rounds = 20) {
  await settled(svc);
  const counter = countQueries(svc, [...ids, ...devices.flatMap((d) => [d.screenId, d.ownerId])]);
  try {
    for (let i = 0; i < rounds; i++) {
      for (const device of devices) {
        await manifest(svc, device);
        await screenOfDevice(svc.server.context, identity(device));
      }
    }
  } finally {
    counter.stop();
  }
  return counter.seen;
}

/** Polls B's manifest until `check` holds (the event has arrived); the time it took is well under any backstop. */
async function manifestOnceChanged(svc: TestService, device: Device, check: (m: Json) => boolean): Promise<Json> {
  const started = performance.now();
  const m = await eventually(async () => {
    const current = await manifest(svc, device);
    return check(current) ? current : undefined;
  });
  expect(performance.now() - started).toBeLessThan(VIEW_BACKSTOP_MS);
  return m;
}

describe('the device view on two instances', () => {
  it("an assignment made through A is in B's manifest at once, and B serves it from memory", async () => {
    const owner = member();
    const { playlistId } = await content(owner.userId);
    const { screenId, device } = await pairDisplay(a, owner, 'Lobby');
    expect((await manifest(b, device)).assignment).toEqual({ kind: 'none' });
    expect(await queriesOfDisplays(b, [device], [])).toEqual([]);

    await ok(a, owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'playlist', playlistId } });
    await manifestOnceChanged(b, device, (m) => (m.assignment as Json).kind === 'playlist');
    expect((await manifest(b, device)).assignment).toEqual({ kind: 'playlist', playlistId });
    expect(await queriesOfDisplays(b, [device], [])).toEqual([]);
    // and what A serves is the same
    expect(await manifest(a, device)).toEqual(await manifest(b, device));
  });

  it("a group's assignment and schedule, a group joined and a takeover through A are in B's manifest at once", async () => {
    const owner = member();
    const { playlistId, other } = await content(owner.userId);
    const first = await pairDisplay(a, owner, 'East 1');
    const second = await pairDisplay(a, owner, 'East 2');
    const east = await ok(a, owner, 'POST', '/api/screens/groups', {
      name: 'East',
      screenIds: [first.screenId],
      assignment: { kind: 'playlist', playlistId },
    });
    await manifestOnceChanged(b, first.device, (m) => (m.groups as Json[]).length === 1);
    expect((await manifest(b, first.device)).groups).toEqual([
      { id: east.id, assignment: { kind: 'playlist', playlistId } },
    ]);

    const schedule = {
      kind: 'schedule',
      schedule: {
        parts: [{ days: [1, 2, 3], start: '09:00', end: '17:00', playlistId: other }],
        defaultPlaylistId: null,
      },
    };
    await ok(a, owner, 'PUT', `/api/screens/groups/${east.id}`, { assignment: schedule });
    const scheduled = await manifestOnceChanged(
      b,
      first.device,
      (m) => ((m.groups as Json[])[0]?.assignment as Json | undefined)?.kind === 'schedule',
    );
    expect(scheduled.groups).toEqual([{ id: east.id, assignment: schedule }]);

    // a group changed while it has no member announces nothing; the screen that joins it brings it to B
    const west = await ok(a, owner, 'POST', '/api/screens/groups', { name: 'West' });
    await ok(a, owner, 'PUT', `/api/screens/groups/${west.id}`, {
      assignment: { kind: 'playlist', playlistId: other },
    });
    await ok(a, owner, 'POST', '/api/screens/bulk', {
      selection: { by: 'ids', screenIds: [second.screenId] },
      change: { kind: 'add-to-group', groupId: west.id },
    });
    const joined = await manifestOnceChanged(b, second.device, (m) => (m.groups as Json[]).length === 1);
    expect(joined.groups).toEqual([{ id: west.id, assignment: { kind: 'playlist', playlistId: other } }]);

    const takeover = await ok(a, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'message', title: '臨時休業', body: '' },
      minutes: 30,
    });
    for (const d of [first.device, second.device]) {
      const m = await manifestOnceChanged(b, d, (x) => (x.takeovers as Json[]).length === 1);
      expect((m.takeovers as Json[])[0]?.id).toBe(takeover.id);
    }
    await ok(a, owner, 'DELETE', `/api/screens/takeovers/${takeover.id}`);
    await manifestOnceChanged(b, first.device, (m) => (m.takeovers as Json[]).length === 0);
    for (const d of [first.device, second.device]) expect(await manifest(b, d)).toEqual(await manifest(a, d));
    expect(await queriesOfDisplays(b, [first.device, second.device], [east.id, west.id])).toEqual([]);
  });

  it('a screen unpaired through A is refused by B at once (its manifest and its reports)', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(a, owner, 'Gone soon');
    // B has checked it for a report (the first pass kept that for a minute)
    await screenOfDevice(b.server.context, identity(device));
    expect((await call(b, { device }, 'GET', '/api/screens/device/me')).status).toBe(200);
    await ok(a, owner, 'DELETE', `/api/screens/${screenId}`);
    await eventually(async () =>
      (await screenOfDevice(b.server.context, identity(device)).then(
        () => false,
        (err) => (err as { code?: string }).code === 'UNAUTHORIZED',
      ))
        ? true
        : undefined,
    );
    expect((await call(b, { device }, 'GET', '/api/screens/device/me')).status).toBe(401);
  });

  it("a screen paired through A is in B's fleet view at once", async () => {
    const owner = member();
    await pairDisplay(a, owner, 'Already');
    const names = async () =>
      ((await ok(b, owner, 'GET', '/api/screens/health')).items as Json[]).map((i) => i.name as string).sort();
    // once its pairing's event has reached B (the only wait: no age, no clock)
    await eventually(async () => ((await names()).length === 1 ? true : undefined));
    expect(await names()).toEqual(['Already']);
    // B's clock an hour behind: no age B keeps could run out while the test waits, only the pairing's event helps
    b.clock.offsetMs -= 3_600_000;
    try {
      await pairDisplay(a, owner, 'Paired on A');
      const seen = await eventually(async () => {
        const now = await names();
        return now.length === 2 ? now : undefined;
      });
      expect(seen).toEqual(['Already', 'Paired on A']);
    } finally {
      b.clock.offsetMs += 3_600_000;
    }
  });

  it('answers If-None-Match with 304 from memory', async () => {
    const owner = member();
    const { device } = await pairDisplay(a, owner, 'Etag');
    const first = await call(b, { device }, 'GET', '/api/screens/device/me');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    await settled(b);
    const counter = countQueries(b, [device.screenId, device.ownerId]);
    try {
      for (let i = 0; i < 20; i++) {
        const again = await call(b, { device }, 'GET', '/api/screens/device/me', undefined, {
          'if-none-match': etag ?? '',
          // as the player sends it (fetch would add no-cache to a conditional request, which is never answered 304)
          'cache-control': 'max-age=0',
        });
        expect(again.status).toBe(304);
      }
    } finally {
      counter.stop();
    }
    expect(counter.seen).toEqual([]);
  });

  it('a restart serves the same manifest for every screen, from memory from the start', async () => {
    const owner = member();
    const { playlistId } = await content(owner.userId);
    const displays = [];
    for (const name of ['R1', 'R2', 'R3']) displays.push(await pairDisplay(a, owner, name));
    const group = await ok(a, owner, 'POST', '/api/screens/groups', {
      name: 'Restarted',
      screenIds: [displays[0]?.screenId, displays[1]?.screenId],
      assignment: { kind: 'playlist', playlistId },
    });
    await ok(a, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [group.id] },
      content: { kind: 'message', title: 'Restart', body: '' },
      minutes: 60,
    });
    const devices = displays.map((d) => d.device);
    for (const d of devices)
      await manifestOnceChanged(b, d, (m) => (m.takeovers as Json[]).length > 0 || d === devices[2]);
    const before = await Promise.all(devices.map((d) => manifest(b, d)));
    await b.close();
    b = await startReplica(a);
    // before any change: the same answers, and not one query (the start's scan loaded them)
    const counter = countQueries(b, [group.id, ...devices.flatMap((d) => [d.screenId, d.ownerId])]);
    try {
      expect(await Promise.all(devices.map((d) => manifest(b, d)))).toEqual(before);
    } finally {
      counter.stop();
    }
    expect(counter.seen).toEqual([]);
    expect(await queriesOfDisplays(b, devices, [group.id])).toEqual([]);
  });
});

// Figures of the device view (issue 40, second pass) at 10,000 screens: the start's load (ms), the view's memory
// (bytes per screen) and a display's manifest from memory against the first pass's path (its record, the owner's
// fleet document and its groups read by `_id` on every call), in µs per call; the answers are checked equal.
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  type DeviceIdentity,
  type DeviceScreen,
  SCREEN_DEFAULT_TIME_ZONE,
  SCREEN_HEARTBEAT_SECONDS,
} from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context';
import { createDeviceView, type ViewCollection } from '../src/data/device-view';
import { getDeviceScreen } from '../src/use-cases/device-screen';
import { inputsOf } from '../src/use-cases/fleet-common';
import { groupsOfScreen, settingsOf } from '../src/use-cases/screen-health';
import { startService, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const N = 10_000;
const OWNERS = 100;

/** The first pass's manifest (before the view): the record, the fleet document and the groups read on every call. */
async function manifestFromDatabase(ctx: ServiceContext, device: DeviceIdentity): Promise<DeviceScreen> {
  const screen = await ctx.data.screens.get(device.screenId);
  if (!screen || screen.revokedAt || screen.deviceId !== device.deviceId) throw new Error('refused');
  const [fleet, groups] = await Promise.all([
    ctx.data.fleet.fleets.get(screen.ownerId),
    ctx.data.fleet.groups.byIds(screen.groupIds ?? []),
  ]);
  const groupsById = new Map(groups.map((g) => [g._id, g]));
  const inputs = inputsOf(screen, fleet, groupsById, ctx.now());
  const { rotation, openingHours } = settingsOf(screen, groupsOfScreen(screen, groupsById, fleet.order));
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    screenId: screen._id,
    name: screen.name,
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    heartbeatSeconds: SCREEN_HEARTBEAT_SECONDS,
    groups: inputs.groups.map((g) => ({ id: g.id, assignment: g.assignment })),
    takeovers: inputs.takeovers.map((t) => ({
      id: t.id,
      show: t.show,
      startsAt: iso(t.startsAt),
      endsAt: t.endsAt === null ? null : iso(t.endsAt),
    })),
    rotation,
    openingHours,
  };
}

describe('device view figures', () => {
  it(`${N} screens: load, memory per screen, manifest from memory vs from the database (printed)`, {
    timeout: 600_000,
  }, async () => {
    const { conn } = svc.server.context;
    const ctx = svc.server.context;
    const at = new Date();
    // 100 owners of 100 screens; each owner two groups (a playlist each, hours on one) and a running takeover
    const owners = Array.from({ length: OWNERS }, () => `u-${randomUUID()}`);
    const groups = owners.flatMap((ownerId, o) =>
      [0, 1].map((k) => ({
        _id: `g-${o}-${k}-${randomUUID()}`,
        ownerId,
        name: `Group ${k}`,
        nameKey: `group ${k}`,
        assignment: { kind: 'playlist', playlistId: `p-${o}-${k}` },
        createdAt: at,
        ...(k === 0 ? { openingHours: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }] } : {}),
      })),
    );
    const fleets = owners.map((ownerId, o) => ({
      _id: ownerId,
      order: [groups[2 * o + 1]?._id, groups[2 * o]?._id],
      running: [
        {
          id: `t-${o}`,
          target: { kind: 'groups', groupIds: [groups[2 * o]?._id] },
          content: { kind: 'message', title: 'Notice', body: '' },
          startsAt: at,
          endsAt: new Date(at.getTime() + 86_400_000),
        },
      ],
    }));
    const screens = Array.from({ length: N }, (_, i) => {
      const o = i % OWNERS;
      return {
        _id: `s-${randomUUID()}`,
        ownerId: owners[o] as string,
        deviceId: `d-${randomUUID()}`,
        pairingId: `p-${randomUUID()}`,
        name: `Screen ${i}`,
        timeZone: SCREEN_DEFAULT_TIME_ZONE,
        assignment: { kind: 'none' },
        assignmentSeq: 0,
        groupIds: i % 3 === 0 ? [groups[2 * o]?._id, groups[2 * o + 1]?._id] : [groups[2 * o + (i % 2)]?._id],
        pairedAt: at,
        revokedAt: null,
      };
    });
    await conn.collection('screen_groups').insertMany(groups as never[]);
    await conn.collection('screen_fleets').insertMany(fleets as never[]);
    for (let i = 0; i < N; i += 500) await conn.collection('screens').insertMany(screens.slice(i, i + 500) as never[]);

    // the start's load (as a restart runs it), on the service's own view
    const loaded = await ctx.data.view.load();
    expect(loaded.screens).toBe(N);

    // memory: a second view of the same collections, its heap measured after a collection before and after its load
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collections = {
      screens: conn.collection('screens') as unknown as ViewCollection,
      groups: conn.collection('screen_groups') as unknown as ViewCollection,
      fleets: conn.collection('screen_fleets') as unknown as ViewCollection,
    };
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const measured = createDeviceView(collections);
    const fresh = await measured.load();
    gc();
    const bytesPerScreen = (process.memoryUsage().heapUsed - heapBefore) / N;
    expect(measured.size().screens).toBe(N);

    const devices: DeviceIdentity[] = screens.map((s) => ({
      kind: 'device',
      deviceId: s.deviceId,
      screenId: s._id,
      ownerId: s.ownerId,
      iat: 0,
    }));
    // the same answers, for a sample of every shape
    for (const d of devices.slice(0, 300)) {
      expect(await getDeviceScreen(ctx, d)).toEqual(await manifestFromDatabase(ctx, d));
    }
    const warm = devices.slice(0, 1_000);
    for (const d of warm) await getDeviceScreen(ctx, d);
    let started = performance.now();
    for (const d of devices) await getDeviceScreen(ctx, d);
    const memoryUs = ((performance.now() - started) * 1000) / N;
    // the first pass's path, one call at a time (2,000 calls: each costs three queries)
    const OLD = 2_000;
    started = performance.now();
    for (const d of devices.slice(0, OLD)) await manifestFromDatabase(ctx, d);
    const databaseUs = ((performance.now() - started) * 1000) / OLD;
    console.log(
      `device view, ${N} screens (${OWNERS} owners, ${groups.length} groups, a takeover each): ` +
        `load ${loaded.ms.toFixed(0)} ms ` +
        `(a new view: ${fresh.ms.toFixed(0)} ms) ` +
        `(${loaded.screens} screens, ${loaded.groups} groups, ${loaded.fleets} fleet documents); memory ` +
        `${bytesPerScreen.toFixed(0)} bytes per screen; manifest from memory ${memoryUs.toFixed(1)} µs per call ` +
        `(${N} calls), from the database ${databaseUs.toFixed(0)} µs per call (${OLD} calls)`,
    );
    expect(memoryUs).toBeGreaterThan(0);
  });
});

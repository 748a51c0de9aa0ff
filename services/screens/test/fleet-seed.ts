// Screens written straight to the database (as a restart finds them), shared by the device view's test
// (device-view-figures.test.ts) and the figures of `npm run bench` (bench/device-view.bench.mjs,
// bench/fleet-view.bench.mjs): the owners' groups, fleet documents and screens, the first pass's manifest path to
// compare the view with, a counter of the queries naming given ids, and the statuses the fleet view judges.
import { randomUUID } from 'node:crypto';
import {
  type DeviceIdentity,
  type DeviceScreen,
  type FleetHealthCounts,
  SCREEN_DEFAULT_TIME_ZONE,
  type ShownReport,
} from '@pagecast/contracts';
import type { ServiceContext } from '../src/context';
import type { FleetDoc, GroupDoc, ScreenRecord } from '../src/data';
import { manifestOf } from '../src/domain';

export interface SeededFleet {
  owners: string[];
  groups: GroupDoc[];
  fleets: FleetDoc[];
  screens: ScreenRecord[];
  /** each screen's device identity (what the gateway passes for its token) */
  devices: DeviceIdentity[];
}

async function insertAll(ctx: ServiceContext, fleet: Omit<SeededFleet, 'devices'>): Promise<SeededFleet> {
  const { conn } = ctx;
  if (fleet.groups.length > 0) await conn.collection('screen_groups').insertMany(fleet.groups as never[]);
  if (fleet.fleets.length > 0) await conn.collection('screen_fleets').insertMany(fleet.fleets as never[]);
  for (let i = 0; i < fleet.screens.length; i += 500)
    await conn.collection('screens').insertMany(fleet.screens.slice(i, i + 500) as never[]);
  const devices = fleet.screens.map((s) => ({
    kind: 'device' as const,
    deviceId: s.deviceId,
    screenId: s._id,
    ownerId: s.ownerId,
    iat: 0,
  }));
  return { ...fleet, devices };
}

/**
 * `count` screens spread over `ownerCount` owners (round robin), inserted without an event: each owner two groups (a
 * playlist each, opening hours on the first) and a takeover running on its first group; a third of the screens are
 * in both groups, the rest in one. Every shape of manifest: groups, hours, a takeover or none.
 */
export async function seedDeviceFleet(ctx: ServiceContext, count: number, ownerCount: number): Promise<SeededFleet> {
  const at = new Date(ctx.clock.ms());
  const owners = Array.from({ length: ownerCount }, () => `u-${randomUUID()}`);
  const groups: GroupDoc[] = owners.flatMap((ownerId, o) =>
    [0, 1].map((k) => ({
      _id: `g-${o}-${k}-${randomUUID()}`,
      ownerId,
      name: `Group ${k}`,
      nameKey: `group ${k}`,
      assignment: { kind: 'playlist' as const, playlistId: `p-${o}-${k}` },
      createdAt: at,
      ...(k === 0 ? { openingHours: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }] } : {}),
    })),
  );
  const groupId = (o: number, k: number) => groups[2 * o + k]?._id as string;
  const fleets: FleetDoc[] = owners.map((ownerId, o) => ({
    _id: ownerId,
    order: [groupId(o, 1), groupId(o, 0)],
    running: [
      {
        id: `t-${o}`,
        target: { kind: 'groups', groupIds: [groupId(o, 0)] },
        content: { kind: 'message', title: 'Notice', body: '' },
        startsAt: at,
        endsAt: new Date(at.getTime() + 86_400_000),
      },
    ],
  })) as FleetDoc[];
  const screens: ScreenRecord[] = Array.from({ length: count }, (_, i) => {
    const o = i % ownerCount;
    return {
      _id: `s-${randomUUID()}`,
      ownerId: owners[o] as string,
      deviceId: `d-${randomUUID()}`,
      pairingId: `p-${randomUUID()}`,
      name: `Screen ${i}`,
      timeZone: SCREEN_DEFAULT_TIME_ZONE,
      assignment: { kind: 'none' },
      assignmentSeq: 0,
      groupIds: i % 3 === 0 ? [groupId(o, 0), groupId(o, 1)] : [groupId(o, i % 2)],
      pairedAt: at,
      revokedAt: null,
    };
  });
  return insertAll(ctx, { owners, groups, fleets, screens });
}

/** The first pass's manifest (before the view): the record, the fleet document and the groups read on every call. */
export async function manifestFromDatabase(ctx: ServiceContext, device: DeviceIdentity): Promise<DeviceScreen> {
  const screen = await ctx.data.screens.get(device.screenId);
  if (!screen || screen.revokedAt || screen.deviceId !== device.deviceId) throw new Error('refused');
  const [fleet, groups] = await Promise.all([
    ctx.data.fleet.fleets.get(screen.ownerId),
    ctx.data.fleet.groups.byIds(screen.groupIds ?? []),
  ]);
  return manifestOf(screen, fleet, new Map(groups.map((g) => [g._id, g])), ctx.clock.ms());
}

/**
 * The database operations of `ctx` that name any of `ids` (other tests' events, which share NATS, name none of
 * them), counted from mongoose's operation events until `stop`.
 */
export function countQueries(ctx: ServiceContext, ids: string[]) {
  const seen: string[] = [];
  const listener = (op: { collectionName?: string; method?: string; params?: unknown }) => {
    const text = JSON.stringify(op.params ?? null);
    if (ids.some((id) => text.includes(id))) seen.push(`${op.collectionName}.${op.method}`);
  };
  ctx.conn.on('operation-start', listener);
  return {
    seen,
    stop: () => {
      ctx.conn.off('operation-start', listener);
    },
  };
}

/** Which health each screen of the fleet view's seed is given, by its index: 5 in every 200 in a bad state. */
const stateOfIndex = (i: number) =>
  (['offline', 'closed', 'broken', 'frozen', 'wrong'] as const)[i % 200] ?? ('ok' as const);

/**
 * The fleet view's seed: `perOwner` screens for each of `ownerCount` owners, named `Screen 00000` on, inserted
 * without an event, and a status for every one of them put through the service's statuses repository (what a
 * heartbeat writes: the JetStream bucket and this instance's memory). Even screens play `fileId` of their own,
 * odd ones their group's playlist `playlistId` (announced by the caller: its files are `fileId`). Out of every 200:
 * one last seen 2 hours ago (offline), one never open (closed), one whose image failed (broken), one showing a
 * page held for 10 s since an hour ago (frozen), one showing another file for 10 minutes (wrong); the rest show
 * their page now (ok). Returns the seed, its instant (ms, the service's clock: the states hold at it, and 35 s later
 * a screen without a heartbeat is offline) and the counts the fleet view must give for each owner at it.
 */
export async function seedReportingFleet(
  ctx: ServiceContext,
  {
    ownerCount,
    perOwner,
    fileId,
    playlistId,
  }: { ownerCount: number; perOwner: number; fileId: string; playlistId: string },
): Promise<{ at: number; owners: string[]; screens: ScreenRecord[]; groups: GroupDoc[]; counts: FleetHealthCounts }> {
  const now = ctx.clock.ms();
  const at = new Date(now);
  const iso = (ms: number) => new Date(ms).toISOString();
  const owners = Array.from({ length: ownerCount }, () => `u-${randomUUID()}`);
  const groups: GroupDoc[] = owners.flatMap((ownerId) => [
    {
      _id: `g-${randomUUID()}`,
      ownerId,
      name: 'Lobby',
      nameKey: 'lobby',
      assignment: { kind: 'playlist' as const, playlistId },
      createdAt: at,
    },
    {
      _id: `g-${randomUUID()}`,
      ownerId,
      name: 'Shop',
      nameKey: 'shop',
      assignment: { kind: 'none' as const },
      createdAt: at,
    },
  ]);
  const fleets: FleetDoc[] = owners.map((ownerId, o) => ({
    _id: ownerId,
    order: [groups[2 * o + 1]?._id as string, groups[2 * o]?._id as string],
    running: [],
  }));
  const screens: ScreenRecord[] = owners.flatMap((ownerId, o) =>
    Array.from({ length: perOwner }, (_, i) => ({
      _id: `s-${randomUUID()}`,
      ownerId,
      deviceId: `d-${randomUUID()}`,
      pairingId: `p-${randomUUID()}`,
      name: `Screen ${String(i).padStart(5, '0')}`,
      timeZone: SCREEN_DEFAULT_TIME_ZONE,
      assignment: i % 2 === 0 ? { kind: 'file' as const, fileId } : { kind: 'none' as const },
      assignmentSeq: 0,
      groupIds: [groups[2 * o + (i % 2 === 0 ? 1 : 0)]?._id as string],
      ...(stateOfIndex(i) === 'closed' ? { openingHours: [] } : {}),
      pairedAt: at,
      revokedAt: null,
    })),
  );
  await insertAll(ctx, { owners, groups, fleets, screens });

  const page = (file: string, shownAt: number, holdSeconds: number, error: 'load-failed' | null): ShownReport => ({
    kind: 'page',
    fileId: file,
    page: 1,
    shownAt: iso(shownAt),
    holdSeconds,
    loaded: error === null,
    error,
  });
  const statusOf = (s: ScreenRecord, i: number) => {
    const state = stateOfIndex(i);
    const seenAt = state === 'offline' ? now - 2 * 3_600_000 : now;
    const shownAt = state === 'frozen' ? now - 3_600_000 : seenAt;
    const shows =
      state === 'broken'
        ? page(fileId, now - 600_000, 10, 'load-failed')
        : state === 'wrong'
          ? page(`${fileId}-other`, now - 600_000, 3_600, null)
          : page(fileId, shownAt, state === 'frozen' ? 10 : 3_600, null);
    return {
      screenId: s._id,
      ownerId: s.ownerId,
      lastSeenAt: new Date(seenAt),
      nowPlaying: { fileId: shows.kind === 'page' ? shows.fileId : null, page: 1 },
      appVersion: 'bench',
      screenSize: { width: 1920, height: 1080 },
      shows,
      wrongSince: state === 'wrong' ? now - 600_000 : null,
      brokenSince: state === 'broken' ? now - 600_000 : null,
      shownSeenAt: Date.parse(shows.shownAt),
    };
  };
  const indexed = screens.map((s, k) => [s, k % perOwner] as const);
  for (let k = 0; k < indexed.length; k += 200) {
    await Promise.all(indexed.slice(k, k + 200).map(([s, i]) => ctx.data.statuses.record(statusOf(s, i))));
  }

  const counts: FleetHealthCounts = {
    total: 0,
    online: 0,
    offline: 0,
    closed: 0,
    broken: 0,
    frozen: 0,
    wrong: 0,
    ok: 0,
  };
  for (let i = 0; i < perOwner; i++) {
    const state = stateOfIndex(i);
    counts.total++;
    counts[state]++;
    if (state !== 'offline') counts.online++;
  }
  return { at: now, owners, screens, groups, counts };
}

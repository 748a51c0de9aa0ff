// The device view (second pass) at a few hundred screens written straight to the database: the start's
// load holds every active screen, group and fleet document, a display's manifest from the view equals the first
// pass's (its record, the owner's fleet document and its groups read on every call) for every shape, and once loaded
// neither the manifest nor the device check asks the database anything. Its figures at 10,000 screens (load ms,
// bytes per screen, µs per manifest) are in `npm run bench -- "device view"` (bench/device-view.bench.mjs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDeviceScreen, screenOfDevice } from '../src/use-cases/device-screen';
import { countQueries, manifestFromDatabase, type SeededFleet, seedDeviceFleet } from './fleet-seed';
import { startService, type TestService } from './helpers';

let svc: TestService;
let seeded: SeededFleet;
const N = 400;
const OWNERS = 4;
beforeAll(async () => {
  svc = await startService();
  seeded = await seedDeviceFleet(svc.server.context, N, OWNERS);
});
afterAll(async () => {
  await svc?.close();
});

describe('the device view over screens written without events', () => {
  it(`loads every one of ${N} screens, their groups and fleet documents`, async () => {
    const ctx = svc.server.context;
    // nothing announced them: the view has none of them until it loads (as a restart runs it)
    expect(await ctx.data.screens.forHealth(seeded.owners[0] as string)).toEqual([]);
    const loaded = await ctx.data.view.load();
    expect({ screens: loaded.screens, groups: loaded.groups, fleets: loaded.fleets }).toEqual({
      screens: N,
      groups: 2 * OWNERS,
      fleets: OWNERS,
    });
    for (const ownerId of seeded.owners) expect(await ctx.data.screens.forHealth(ownerId)).toHaveLength(N / OWNERS);
  });

  it("answers every display's manifest as the first pass did, with no query once loaded", async () => {
    const ctx = svc.server.context;
    await ctx.data.view.load();
    for (const d of seeded.devices) expect(await getDeviceScreen(ctx, d)).toEqual(await manifestFromDatabase(ctx, d));
    // every shape was compared: in a group's hours, in the takeover's group, in both groups
    const shapes = await Promise.all(seeded.devices.slice(0, 6).map((d) => getDeviceScreen(ctx, d)));
    const shapeOf = (m: (typeof shapes)[number]) =>
      `${m.groups?.length}/${m.takeovers?.length}/${m.openingHours !== null}`;
    expect(new Set(shapes.map(shapeOf)).size).toBe(3);

    const ids = [
      ...seeded.owners,
      ...seeded.groups.map((g) => g._id),
      ...seeded.devices.flatMap((d) => [d.screenId, d.deviceId]),
    ];
    // the counter sees the first pass's reads (the record, the fleet document, the groups)
    const first = countQueries(ctx, ids);
    await manifestFromDatabase(ctx, seeded.devices[0] as (typeof seeded.devices)[number]);
    first.stop();
    expect(first.seen).toHaveLength(3);

    const counter = countQueries(ctx, ids);
    try {
      for (const d of seeded.devices) {
        await getDeviceScreen(ctx, d);
        await screenOfDevice(ctx, d);
      }
    } finally {
      counter.stop();
    }
    expect(counter.seen).toEqual([]);
  });
});

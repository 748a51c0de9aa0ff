// Device view figures (second pass) at 10,000 screens of 100 owners, written straight to the database
// (test/fleet-seed.ts, the seed the view's test uses at 400): the start's load (ms) on the service's own view and on
// a new one, the view's memory (bytes per screen, heap after a collection before and after a new view's load), and a
// display's manifest from memory against the first pass's path (its record, the owner's fleet document and its groups
// read by `_id` on every call), in µs per call, one call at a time. The answers are checked equal on a sample.
// Figures only; it never fails on time.   node --import tsx services/screens/bench/run.mjs "device view"
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createDeviceView } from '../src/data/device-view.ts';
import { getDeviceScreen } from '../src/use-cases/device-screen.ts';
import { manifestFromDatabase, seedDeviceFleet } from '../test/fleet-seed.ts';
import { startService } from '../test/helpers.ts';

const N = 10_000;
const OWNERS = 100;
/** the first pass's path costs three queries a call: fewer calls */
const OLD = 2_000;

export async function benchDeviceView({ log = () => {} } = {}) {
  const svc = await startService();
  try {
    const ctx = svc.server.context;
    log(`seeding ${N} screens of ${OWNERS} owners ...`);
    const seeded = await seedDeviceFleet(ctx, N, OWNERS);
    const { devices } = seeded;

    // the start's load (as a restart runs it), on the service's own view
    const loaded = await ctx.data.view.load();
    if (loaded.screens !== N) throw new Error(`the view loaded ${loaded.screens} screens, not ${N}`);

    // memory: a second view of the same collections, the heap measured after a collection before and after its load
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const collections = {
      screens: ctx.conn.collection('screens'),
      groups: ctx.conn.collection('screen_groups'),
      fleets: ctx.conn.collection('screen_fleets'),
    };
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const measured = createDeviceView(collections);
    const fresh = await measured.load();
    gc();
    const bytesPerScreen = (process.memoryUsage().heapUsed - heapBefore) / N;
    if (measured.size().screens !== N) throw new Error(`a new view holds ${measured.size().screens} screens`);

    // the same answers, for a sample of every shape
    for (const d of devices.slice(0, 300)) {
      if (!isDeepStrictEqual(await getDeviceScreen(ctx, d), await manifestFromDatabase(ctx, d)))
        throw new Error(`the view's manifest of ${d.screenId} differs from the first pass's`);
    }
    for (const d of devices.slice(0, 1_000)) await getDeviceScreen(ctx, d);
    log(`manifests: ${N} from memory, ${OLD} by the first pass's path ...`);
    let started = performance.now();
    for (const d of devices) await getDeviceScreen(ctx, d);
    const memoryUs = ((performance.now() - started) * 1000) / N;
    for (const d of devices.slice(OLD, OLD + 100)) await manifestFromDatabase(ctx, d);
    started = performance.now();
    for (const d of devices.slice(0, OLD)) await manifestFromDatabase(ctx, d);
    const databaseUs = ((performance.now() - started) * 1000) / OLD;

    const shape = `${N} screens, ${OWNERS} owners, ${seeded.groups.length} groups, a takeover each`;
    return [
      { label: `start load, the service's view (${shape})`, value: Math.round(loaded.ms), unit: 'ms' },
      { label: 'load of a new view of the same collections', value: Math.round(fresh.ms), unit: 'ms' },
      { label: 'memory of the view (heap after collections)', value: Math.round(bytesPerScreen), unit: 'bytes/screen' },
      {
        label: `manifest from memory (${N} calls, one at a time)`,
        value: Number(memoryUs.toFixed(1)),
        unit: 'µs/call',
      },
      {
        label: `baseline: the first pass's path (${OLD} calls, 3 queries each)`,
        value: Math.round(databaseUs),
        unit: 'µs/call',
      },
      { label: 'first pass / view', value: Number((databaseUs / memoryUs).toFixed(0)), unit: 'x' },
    ];
  } finally {
    await svc.close();
  }
}

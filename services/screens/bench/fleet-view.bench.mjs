// Fleet view figures (GET /api/screens/health: counts per state and one page, summarised on the server)
// at 10,000 screens of one owner, every one reporting, then at 10,000 screens of 100 owners (one owner's 100): the
// screens written straight to the database and loaded by the device view as a restart loads them, a status for each
// put through the service's statuses repository (the JetStream bucket and the memory a heartbeat writes), 5 in every
// 200 in a bad state (offline, closed, broken, frozen, wrong; test/fleet-seed.ts). Each row is one query through the
// service's HTTP API (identity header, query parsing, JSON), one call at a time: its first call, then p50/p95 over
// 200 calls after 20 unmeasured; the use case alone (no HTTP) and its health of every screen (healthOfScreens)
// beside it. The service's clock is held at the statuses' instant before each call (no heartbeat needed to stay
// online). The answers are checked (counts, states, names, pages). The statuses are deleted from the bucket at the
// end. Figures only; it never fails on time.
//   node --import tsx services/screens/bench/run.mjs "fleet view"
import { performance } from 'node:perf_hooks';
import { Kvm } from '@nats-io/kv';
import { FleetHealthQuery } from '@pagecast/contracts';
import { percentile } from '../../../scripts/lib/stats.mjs';
import { STATUS_BUCKET } from '../src/data/statuses.ts';
import { fleetHealth } from '../src/use-cases/fleet-health.ts';
import { healthOfScreens } from '../src/use-cases/screen-health.ts';
import { seedReportingFleet } from '../test/fleet-seed.ts';
import { announcer, call, eventsHandled, startService } from '../test/helpers.ts';

const SCREENS = 10_000;
const CALLS = 200;
const WARMUP = 20;

/** First call, then p50/p95 (ms) of CALLS more after WARMUP unmeasured; `check` sees the first answer. */
async function timed(label, once, check) {
  let t0 = performance.now();
  const first = await once();
  const firstMs = performance.now() - t0;
  check(first.body);
  for (let i = 0; i < WARMUP; i++) await once();
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const round = (ms) => Number(ms.toFixed(2));
  return {
    label,
    'first ms': round(firstMs),
    'p50 ms': round(percentile(times, 50)),
    'p95 ms': round(percentile(times, 95)),
    calls: CALLS,
    items: first.body.items.length,
    'answer KiB': first.bytes > 0 ? Number((first.bytes / 1024).toFixed(1)) : '-',
  };
}

function expectThat(ok, what) {
  if (!ok) throw new Error(`wrong answer: ${what}`);
}

export async function benchFleetView({ log = () => {} } = {}) {
  const svc = await startService();
  const ctx = svc.server.context;
  const screenIds = [];
  const rows = [];
  try {
    // the file and playlist the screens play, known to the service's read model as the other services announce them
    const ann = announcer(svc);
    const fileId = await ann.file('bench-owner', 10, Date.now() - 60_000);
    const playlistId = await ann.playlist('bench-owner', [fileId], Date.now() - 60_000);
    await eventsHandled(svc);

    // Every row is judged at the instant its statuses were put (the service's clock held there before each call):
    // without heartbeats every screen would turn offline 35 s later, and a fleet's heartbeats are the load test's.
    let seededAt = Date.now();
    const hold = () => {
      svc.clock.offsetMs = seededAt - Date.now();
    };
    const http = (ownerId, query) => async () => {
      hold();
      const res = await call(svc, { userId: ownerId }, 'GET', `/api/screens/health${query}`);
      if (res.status !== 200) throw new Error(`GET /api/screens/health${query}: ${res.status} ${res.text}`);
      return { body: res.body, bytes: Buffer.byteLength(res.text) };
    };
    const useCase = (ownerId, query) => async () => {
      hold();
      const body = await fleetHealth(ctx, ownerId, FleetHealthQuery.parse(query));
      return { body, bytes: Buffer.byteLength(JSON.stringify(body)) };
    };
    const countsAre = (expected) => (body) =>
      expectThat(JSON.stringify(body.counts) === JSON.stringify(expected), `counts ${JSON.stringify(body.counts)}`);

    // 1. one owner, 10,000 screens
    log(`seeding ${SCREENS} screens of one owner, every one reporting ...`);
    const started = performance.now();
    const one = await seedReportingFleet(ctx, { ownerCount: 1, perOwner: SCREENS, fileId, playlistId });
    seededAt = one.at;
    screenIds.push(...one.screens.map((s) => s._id));
    const seedMs = performance.now() - started;
    const loaded = await ctx.data.view.load();
    log(
      `seeded in ${(seedMs / 1000).toFixed(1)} s (${SCREENS} statuses put); the view's load: ${loaded.ms.toFixed(0)} ms`,
    );
    const [owner] = one.owners;
    const [lobby] = one.groups;
    const names = (body) => body.items.map((i) => i.name);
    const at = (n) => `Screen ${String(n).padStart(5, '0')}`;
    let firstPage;
    rows.push(
      await timed('10,000 of one owner: first page (50, default), counts', http(owner, ''), (body) => {
        countsAre(one.counts)(body);
        expectThat(names(body).join() === Array.from({ length: 50 }, (_, k) => at(k)).join(), 'the first page');
        firstPage = body;
      }),
    );
    rows.push(
      await timed(
        '  second page (cursor)',
        http(owner, `?cursor=${encodeURIComponent(firstPage.nextCursor)}`),
        (body) => expectThat(names(body)[0] === at(50) && body.items.length === 50, 'the second page'),
      ),
    );
    rows.push(
      await timed('  page of 200 (the most)', http(owner, '?limit=200'), (body) =>
        expectThat(body.items.length === 200, 'a page of 200'),
      ),
    );
    rows.push(
      await timed('  state=broken', http(owner, '?state=broken'), (body) => {
        countsAre(one.counts)(body);
        expectThat(body.items.length === 50 && body.items.every((i) => i.state === 'broken'), 'the broken ones');
      }),
    );
    rows.push(
      await timed('  state=wrong, limit=10', http(owner, '?state=wrong&limit=10'), (body) =>
        expectThat(body.items.length === 10 && body.items.every((i) => i.state === 'wrong'), 'the wrong ones'),
      ),
    );
    rows.push(
      await timed(
        '  name filter q=screen 012 (100 match)',
        http(owner, `?q=${encodeURIComponent('screen 012')}`),
        (body) => {
          expectThat(body.counts.total === 100, `q matched ${body.counts.total}`);
          expectThat(names(body)[0] === at(1200), 'the first match');
        },
      ),
    );
    rows.push(
      await timed('  group filter (half of them)', http(owner, `?groupId=${encodeURIComponent(lobby._id)}`), (body) =>
        expectThat(body.counts.total === SCREENS / 2, `the group has ${body.counts.total}`),
      ),
    );
    rows.push(await timed('  the use case alone (no HTTP), first page', useCase(owner, {}), countsAre(one.counts)));
    rows.push(
      await timed(
        '  of which the health of all 10,000 (healthOfScreens)',
        async () => {
          hold();
          const views = await healthOfScreens(ctx, await ctx.data.screens.forHealth(owner), ctx.now());
          return { body: { items: views }, bytes: 0 };
        },
        (body) => expectThat(body.items.length === SCREENS, 'the health of every screen'),
      ),
    );

    // 2. 100 owners of 100 screens (beside the first owner's 10,000): one owner's view
    log('seeding 100 owners of 100 screens, every one reporting ...');
    svc.clock.offsetMs = 0;
    const many = await seedReportingFleet(ctx, { ownerCount: 100, perOwner: 100, fileId, playlistId });
    seededAt = many.at;
    screenIds.push(...many.screens.map((s) => s._id));
    await ctx.data.view.load();
    const small = many.owners[37];
    rows.push(await timed('100 owners of 100: one owner, first page, counts', http(small, ''), countsAre(many.counts)));
    rows.push(
      await timed('  state=offline', http(small, '?state=offline'), (body) =>
        expectThat(body.items.length === 1 && body.items[0].state === 'offline', 'the offline one'),
      ),
    );
    return rows;
  } finally {
    // the statuses out of the shared bucket (a delete reaches every instance's memory)
    const kv = await new Kvm(ctx.nats.js).open(STATUS_BUCKET);
    for (let i = 0; i < screenIds.length; i += 200)
      await Promise.all(screenIds.slice(i, i + 200).map((id) => kv.delete(id).catch(() => {})));
    await svc.close();
  }
}

// npm run bench: starts the stack quietly (test profile, gateway on 18091), runs each benchmark of `benches` in
// turn, prints its table, and stops what it started. Figures only: it never fails on time (only when it cannot
// measure at all). Every request goes to this machine's loopback address, in bounded loops.
//
// To add a benchmark, append { name, run } to `benches`: run(ctx) gets { stack, measure, hostUrl } and returns
// { rows, notes? }, rows being what `measure` returns plus a `label`; the baseline it compares with is measured in
// the same run, next to it.
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';
import { buildFrontEnds } from './lib/build.mjs';
import { corpusDir } from './lib/infra.mjs';
import { startStack } from './lib/stack.mjs';
import { debianFor, ensureDebianPackages } from './lib/tools.mjs';
import { summarize } from './lib/stats.mjs';

// The services' own benchmarks import their TypeScript sources.
register();
// the documents every benchmark uploads, wherever this checkout's shared/ is
process.env.PAGECAST_CORPUS = corpusDir();

const say = (m) => process.stdout.write(`[bench] ${m}\n`);
const PORT = 18091;

/**
 * Sends `requests` GETs to url with `concurrency` in flight (after `warmup` unmeasured ones) and returns latency
 * percentiles in ms and throughput. Fails only if a response is not the expected status.
 */
async function measure(url, { requests = 2000, concurrency = 20, warmup = 200, expect = 200, headers = {} } = {}) {
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?\//.test(url)) throw new Error(`not a loopback URL: ${url}`);
  const one = async () => {
    const t0 = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    const ms = performance.now() - t0;
    if (r.status !== expect) throw new Error(`GET ${url} answered ${r.status}, expected ${expect}`);
    return ms;
  };
  const runLoop = async (count, record) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        const ms = await one();
        record?.(ms);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  };
  await runLoop(warmup);
  const times = [];
  const t0 = performance.now();
  await runLoop(requests, (ms) => times.push(ms));
  const seconds = (performance.now() - t0) / 1000;
  return summarize(times, concurrency, seconds);
}

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function printTable(rows) {
  // bytes per second too when the rows say it (video ranges)
  const bytes = rows.some((r) => 'mibPerSecond' in r);
  const head = ['', 'requests', 'conc.', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', ...(bytes ? ['MiB/s'] : [])];
  const body = rows.map((r) => [
    r.label,
    String(r.requests),
    String(r.concurrency),
    fmt(r.p50),
    fmt(r.p95),
    fmt(r.p99),
    fmt(r.rps, 0),
    ...(bytes ? [fmt(r.mibPerSecond, 0)] : []),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(`${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${body.map(line).join('\n')}\n`);
}

/** Gateway overhead: the same answer asked of a service directly and through the gateway. */
async function gatewayOverhead({ stack, measure, hostUrl }) {
  const service = `http://127.0.0.1:${stack.ports.account}`;
  const rows = [
    { label: 'account /healthz (direct)', ...(await measure(`${service}/healthz`)) },
    { label: 'gateway /healthz (own, internal listener)', ...(await measure(`${stack.internalUrl}/healthz`)) },
    { label: 'account /openapi.json (direct)', ...(await measure(`${service}/openapi.json`)) },
    {
      label: 'gateway /api/docs/account/openapi.json (proxied)',
      ...(await measure(`${hostUrl}/api/docs/account/openapi.json`)),
    },
  ];
  const [, , direct, proxied] = rows;
  return {
    rows,
    notes: [
      `proxied/direct p50 latency: ${fmt(proxied.p50 / direct.p50)}x (+${fmt(proxied.p50 - direct.p50)} ms), ` +
        `p99: ${fmt(proxied.p99 / direct.p99)}x; throughput: ${fmt(proxied.rps / direct.rps)}x of direct`,
    ],
  };
}

/** A benchmark that lives beside its service: it starts what it needs and returns rows of its own shape. */
const owned =
  (file, fn, opts = {}) =>
  async () => {
    const mod = await import(new URL(`../${file}`, import.meta.url).href);
    return { rows: await mod[fn]({ log: (line) => process.stdout.write(`  ${line}\n`), ...opts }) };
  };

const benches = [
  { name: 'gateway overhead', run: gatewayOverhead },
  {
    name: 'login: argon2id under 50 concurrent logins',
    run: owned('services/account/bench/login.bench.mjs', 'benchLogin'),
  },
  {
    name: "member lookup: a login's member read among 20,000 members, by stored hint vs by address",
    run: owned('services/account/bench/member-lookup.bench.mjs', 'benchMemberLookup'),
  },
  {
    name: 'login-timing: median wrong login, unknown address vs member, 200 each, among 400 then 10,400 members',
    run: owned('services/account/bench/login-timing.bench.mjs', 'benchLoginTiming'),
  },
  {
    name: "register-timing: median registration, new address vs a member's (as registered, upper-cased), 200 each",
    run: owned('services/account/bench/register-timing.bench.mjs', 'benchRegisterTiming'),
  },
  {
    name: 'conversion: pages per second vs pdftoppm + sharp and mutool + sharp',
    run: owned('services/file-conversion/bench/conversion.bench.mjs', 'benchConversion'),
  },
  {
    name: 'media: video transcoding vs the ffmpeg command alone on the same file (goal ≥ 0.95x)',
    run: owned('services/file-conversion/bench/media.bench.mjs', 'benchMedia'),
  },
  {
    name: 'upload to first playable page (14-page PDF)',
    run: owned('services/file-conversion/bench/first-page.bench.mjs', 'benchFirstPage'),
  },
  {
    name: 'video-playable: a 100 MB H.264 MP4 (moov at the end) from the end of its resumable upload to playable (goal < 3 s)',
    run: async (ctx) => {
      const { benchVideoFirstPlay } = await import('../services/file-conversion/bench/video-first-play.bench.mjs');
      const { rows, totalMs, goalMs } = await benchVideoFirstPlay({
        log: (line) => process.stdout.write(`  ${line}\n`),
        baseUrl: ctx.hostUrl,
        mailUrl: ctx.stack.mailUrl,
      });
      return { rows, notes: [`last byte → playable: ${fmt(totalMs / 1000)} s (goal under ${goalMs / 1000} s)`] };
    },
  },
  {
    name: 'device view: 10,000 screens of 100 owners, start load, bytes per screen, manifest from memory vs the database',
    run: owned('services/screens/bench/device-view.bench.mjs', 'benchDeviceView'),
  },
  {
    name: 'fleet view: GET /api/screens/health over 10,000 screens of one owner (then 100 owners), every one reporting',
    run: owned('services/screens/bench/fleet-view.bench.mjs', 'benchFleetView'),
  },
  {
    name: 'plays: CPU per play record in the screens service, accepting (a request per record vs one inbox) and judging',
    run: owned('services/screens/bench/play-intake.bench.mjs', 'benchPlayIntake'),
  },
  {
    name: "signed inserts: FerretDB's CPU per signed play batch, a fleet's steady flow, the insert waiting under load vs not",
    run: owned('services/screens/bench/signed-inserts.bench.mjs', 'benchSignedInserts'),
  },
  { name: 'live updates: open streams per gateway', run: owned('gateway/bench/live.bench.mjs', 'benchLive') },
  {
    name: 'sockets: memory per connected display at the gateway, after a full collection (1,000 and 5,000; goal ≤ 32 KiB)',
    run: owned('gateway/bench/device-sockets.bench.mjs', 'benchDeviceSockets'),
  },
  {
    name: "manifest reads: a display's read after a new version, proxied to screens vs answered by the gateway (1,000)",
    run: owned('gateway/bench/manifest-reads.bench.mjs', 'benchManifestReads'),
  },
  {
    name: "edit reads: a display's content reads after a playlist edit, the page's slides and keeper each reading vs sharing (1,000)",
    run: owned('gateway/bench/edit-reads.bench.mjs', 'benchEditReads'),
  },
  {
    name: 'images: a page image through the gateway vs nginx serving the same bytes (wrk, 50 connections)',
    run: async (ctx) => {
      const { rows } = await owned('gateway/bench/images.bench.mjs', 'benchImages', {
        baseUrl: ctx.hostUrl,
        mailUrl: ctx.stack.mailUrl,
      })();
      const [nginx, gateway] = rows;
      return {
        rows,
        notes: [
          `gateway/nginx throughput: ${fmt(gateway.rps / nginx.rps)}x (goal ≥ 0.5); ` +
            `gateway ${fmt(gateway.rps, 0)} req/s, p50 ${fmt(gateway.p50)} ms; nginx ${fmt(nginx.rps, 0)} req/s, p50 ${fmt(nginx.p50)} ms`,
        ],
      };
    },
  },
  {
    name: 'video: a video with Range through the gateway vs nginx serving the same file (wrk, 8 connections; goal ≥ 0.8x)',
    run: async (ctx) => {
      const { benchVideoRange } = await import('../gateway/bench/video.bench.mjs');
      const { rows, ratios, cpuPerMiB, fromCopy } = await benchVideoRange({
        log: (line) => process.stdout.write(`  ${line}\n`),
        baseUrl: ctx.hostUrl,
        mailUrl: ctx.stack.mailUrl,
        internalUrl: ctx.stack.internalUrl,
        processes: ctx.stack.processes,
      });
      return {
        rows,
        notes: ratios
          .map(
            (r) =>
              `${r.name}: gateway/nginx throughput ${fmt(r.ratio)}x (goal ≥ 0.8); gateway ${fmt(r.gateway.mibPerSecond, 0)} ` +
              `MiB/s, p50 ${fmt(r.gateway.p50)} ms, p95 ${fmt(r.gateway.p95)} ms; nginx ${fmt(r.nginx.mibPerSecond, 0)} MiB/s, ` +
              `p50 ${fmt(r.nginx.p50)} ms, p95 ${fmt(r.nginx.p95)} ms`,
          )
          .concat(
            `CPU per MiB served through the gateway: ${Object.entries(cpuPerMiB)
              .map(([name, ms]) => `${name} ${fmt(ms)} ms`)
              .join(', ')} (nginx: sendfile, no copy through the process)`,
            ...(fromCopy
              ? [
                  `timed gateway reads served from its local copy of the video: ${fromCopy.hits} of ${fromCopy.requests} ` +
                    '(the copy made from MinIO once, after the first read, before the timed rounds)',
                ]
              : []),
          ),
      };
    },
  },
  {
    name: 'billing ledger: appends per second and p95 for 50 members beside the plain insert rate',
    run: owned('services/billing/bench/ledger.bench.mjs', 'benchLedger'),
  },
  {
    name: 'marketplace: search over 10,000 listings, purchases per second with the books checked',
    run: owned('services/marketplace/bench/marketplace.bench.mjs', 'benchMarketplace'),
  },
  {
    name: 'player: playlist edit to screen (20 edits, 1 s pages, Chromium)',
    run: async (ctx) => {
      await buildFrontEnds();
      // Its figures are summaries, not an array of rows: one row each, or the table step fails the bench.
      const { rows: r } = await owned('mf-player/bench/edit-latency.bench.mjs', 'benchEditLatency', {
        baseUrl: ctx.hostUrl,
        mailUrl: ctx.stack.mailUrl,
      })();
      return {
        rows: [
          { label: 'save → applied at the next page boundary', ...r.total },
          { label: 'save → the player holds the new data', ...r.delivery },
          { label: 'baseline: the save call itself', ...r.save },
        ],
      };
    },
  },
  {
    name: 'processes: start time and memory of each process, run by tsx and compiled (node)',
    run: async () => {
      const { benchProcesses } = await import('./lib/processes.bench.mjs');
      return benchProcesses({ say });
    },
  },
  {
    // its own stacks, N = 1 then N = 2, each behind nginx (scripts/lib/replicas.bench.mjs; README, "Replicas")
    name: 'replicas: sign-ins and page images per second through nginx, one of everything vs two',
    run: async () => {
      const { benchReplicas } = await import('./lib/replicas.bench.mjs');
      return benchReplicas();
    },
  },
  {
    name: 'lighthouse: performance (mobile) and accessibility of landing, login and the player',
    run: async (ctx) => {
      await buildFrontEnds();
      return owned('tests/e2e/bench/lighthouse.bench.mjs', 'benchLighthouse', {
        baseUrl: ctx.hostUrl,
        mailUrl: ctx.stack.mailUrl,
      })();
    },
  },
];

let stack;
let stopping = false;
async function finish(code) {
  if (stopping) return;
  stopping = true;
  if (stack) await stack.stop().catch((e) => say(`stopping failed: ${e.message}`));
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(130));

try {
  // pdftoppm and mutool (conversion baseline), chromium (player latency), wrk and nginx (page images) come from the
  // bench lists.
  await ensureDebianPackages(debianFor('bench'));
  say(`starting the stack (test profile, gateway on ${PORT}; logs in .data/test/logs) ...`);
  // The gateway's per-address /api limit (600/min) would turn a benchmark into a 429 count: lift it here only.
  stack = await startStack({
    profile: 'test',
    port: PORT,
    quiet: true,
    build: false, // no benchmark here needs the front ends; later ones that do can build them
    env: { RATE_LIMIT_API_MAX: '10000000', LOG_LEVEL: 'warn' },
  });
  const hostUrl = `http://127.0.0.1:${PORT}`;
  // The owned benchmarks start their own service instances against the same local servers.
  for (const k of [
    'MONGO_URL',
    'NATS_URL',
    'S3_ENDPOINT',
    'S3_ACCESS_KEY',
    'S3_SECRET_KEY',
    'SMTP_URL',
    'MAILDEV_API_URL',
    'INTERNAL_SECRET',
  ])
    process.env[k] ??= stack.env[k];
  const only = process.argv[2];
  let failed = 0;
  // Matched against a bench's title (before its colon): "login" picks the login bench, not Lighthouse's login page;
  // a title equal to it wins over those containing it ("login" is not also "login-timing").
  const title = (b) => b.name.split(':')[0];
  const exact = benches.filter((b) => title(b) === only);
  for (const bench of exact.length > 0 ? exact : benches.filter((b) => !only || title(b).includes(only))) {
    process.stdout.write(`\n== ${bench.name}\n`);
    try {
      const { rows, notes = [] } = await bench.run({ stack, measure, hostUrl });
      if (rows.every((r) => 'requests' in r && 'p50' in r)) printTable(rows);
      else console.table(rows);
      for (const n of notes) process.stdout.write(`${n}\n`);
    } catch (e) {
      failed += 1;
      say(`${bench.name}: could not measure: ${e.message}`);
    }
  }
  process.stdout.write('\n');
  await finish(failed ? 1 : 0);
} catch (e) {
  console.error(`[bench] ${e.stack || e.message}`);
  await finish(1);
}

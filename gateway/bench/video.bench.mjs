// A video's bytes through the gateway with Range, as a <video> element asks for them, next to nginx serving the same
// file from disk with the same ranges. The video (about 64 MB of H.264/AAC, made here with ffmpeg) is uploaded
// through the resumable upload by a verified member and converted (kept: moov moved to the front); the member reads
// it at GET /media/video/<id> with the session cookie a browser sends: file-conversion decides that the member may
// play it (once, then kept by the gateway while allowed) and the gateway reads the asked range from MinIO itself
// (gateway/src/media-video.ts). nginx (Debian's, one worker, as in the page-image bench) serves a copy of the stored
// bytes from a temporary folder at the same path.
//
// Two loads, each in alternating rounds (nginx, then the gateway), wrk with `connections` kept-alive connections:
//   - open-ended: `Range: bytes=0-` read to the end, the first request a player makes (a display reads on as it plays)
//   - ranges: `bytes=a-b` of `rangeMiB` MiB walking through the file, as a player asks after a seek or a refill
// Figures: MiB/s, p50/p95 per request, and the gateway's share of nginx's throughput (goal ≥ 0.8).
//
// The gateway keeps a local copy of each video it serves (its edge cache, gateway/src/video-cache.ts): the first read
// copies the object from MinIO once, later ranges come from the copy, each still decided by file-conversion. The
// bench waits until the copy is made before timing (a display plays the same videos over and over: that is the
// steady state), and with `internalUrl` (the gateway's metrics) prints how many timed reads the copy served.
//
// With `processes` (the stack's [{ name, pid }]) it also prints the CPU time the gateway and file-conversion spent per
// MiB served: a figure that load from elsewhere on the machine barely moves, unlike the rates.
//
//   benchVideoRange({ log, baseUrl, mailUrl, internalUrl, processes, connections, seconds, rounds, rangeMiB, megabytes })
// BENCH_VIDEO_SECONDS (default 4), BENCH_VIDEO_ROUNDS (default 3), BENCH_VIDEO_MB (default 64).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifiedSession } from '../../mf-player/bench/edit-latency.bench.mjs';
import { runWrk } from '../../scripts/lib/wrk.mjs';
import { makeSampleVideo, tusUpload } from '../../services/file-conversion/bench/sample-video.mjs';
import { startNginx } from './images.bench.mjs';

const MiB = 1024 * 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** wrk's Lua: each thread walks the file in `chunk`-byte ranges from its own starting point. */
function rangeScript(size, chunk) {
  return `
local size, chunk = ${size}, ${chunk}
local n = math.floor(size / chunk)
local i = nil
sent = 0
request = function()
  if i == nil then i = math.random(0, n - 1) end
  sent = sent + 1
  local s = (i % n) * chunk
  i = i + 1
  -- headers given here replace wrk's own (-H: the session cookie), so they are copied in
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["Range"] = "bytes=" .. s .. "-" .. (s + chunk - 1)
  return wrk.format("GET", nil, headers)
end
`;
}

/** CPU time (user + system, ms) a process has used so far, from /proc; NaN when it cannot be read. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}

/** Waits until the file is converted (not processing); its summary. */
async function converted(call, id) {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
    const f = await call('GET', `/api/files/${id}`);
    if (f.status !== 'processing') return f;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`video ${id} still processing`);
}

/** The gateway's video cache counters (hit, fill, filled, failed, evicted) from its metrics; {} without them. */
async function cacheEvents(internalUrl) {
  if (!internalUrl) return {};
  const text = await (await fetch(`${internalUrl}/metrics`)).text();
  const events = {};
  for (const m of text.matchAll(/^gateway_video_cache_events\{[^}]*\bevent="(\w+)"[^}]*\} (\d+)/gm))
    events[m[1]] = Number(m[2]);
  return events;
}

/** Rounds of one side as one row: MiB/s over all rounds, the median round's percentiles. */
function combine(runs, bytesPerRequest) {
  const rps = runs.reduce((n, r) => n + r.rps, 0) / runs.length;
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    concurrency: runs[0].concurrency,
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    p99: median(runs.map((r) => r.p99)),
    rps,
    mibPerSecond: (rps * bytesPerRequest) / MiB,
  };
}

export async function benchVideoRange({
  log = () => {},
  baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
  mailUrl = process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
  internalUrl,
  processes = [],
  connections = 8,
  seconds = Number(process.env.BENCH_VIDEO_SECONDS ?? 4),
  rounds = Number(process.env.BENCH_VIDEO_ROUNDS ?? 3),
  rangeMiB = 4,
  megabytes = Number(process.env.BENCH_VIDEO_MB ?? 64),
} = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-bench-video-'));
  let nginx;
  try {
    const source = join(dir, 'source.mp4');
    const made = await makeSampleVideo(source, { megabytes });
    const { cookie, call } = await verifiedSession(baseUrl, mailUrl);
    const { id } = await tusUpload({ baseUrl, cookie, path: source, title: 'Bench video' });
    const file = await converted(call, id);
    if (file.status !== 'private' || !file.videoUrl) throw new Error(`video not playable: ${JSON.stringify(file)}`);
    const whole = await fetch(`${baseUrl}${file.videoUrl}`, { headers: { cookie } });
    if (whole.status !== 200) throw new Error(`GET ${file.videoUrl} answered ${whole.status}`);
    const bytes = Buffer.from(await whole.arrayBuffer());
    const type = whole.headers.get('content-type') ?? 'video/mp4';
    nginx = await startNginx(file.videoUrl.slice('/media/'.length), bytes, { type });
    const gatewayUrl = `${baseUrl}${file.videoUrl}`;
    // the first read began the gateway's copy of the video: timed once it is made
    if (internalUrl) {
      const t0 = Date.now();
      let events = await cacheEvents(internalUrl);
      while (!(events.filled >= 1) && Date.now() - t0 < 120_000) {
        if (events.failed >= 1) throw new Error(`the gateway's copy of the video failed: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 200));
        events = await cacheEvents(internalUrl);
      }
      if (!(events.filled >= 1)) throw new Error(`the gateway made no copy of the video: ${JSON.stringify(events)}`);
      log(`the gateway's copy of the video made ${((Date.now() - t0) / 1000).toFixed(1)} s after the first read ended`);
    }
    const chunk = rangeMiB * MiB;
    // the same bytes for the same range from both, before anything is timed
    const probe = { Range: `bytes=${chunk}-${2 * chunk - 1}` };
    const [a, b] = await Promise.all([
      fetch(gatewayUrl, { headers: { ...probe, cookie } }),
      fetch(nginx.url, { headers: probe }),
    ]);
    const [ab, bb] = [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer())];
    if (a.status !== 206 || b.status !== 206 || !ab.equals(bb) || ab.length !== chunk)
      throw new Error(`the range differs: gateway ${a.status} ${ab.length} B, nginx ${b.status} ${bb.length} B`);
    log(
      `video: ${(made.bytes / 1e6).toFixed(1)} MB source, ${made.seconds} s 1080p H.264/AAC, moov at the end; ` +
        `stored ${(bytes.length / 1e6).toFixed(1)} MB (${file.media?.processing}); ${connections} connections, ` +
        `${rounds} rounds of ${seconds} s per load, each nginx then the gateway`,
    );

    // A whole file per request takes seconds through the gateway on a shared machine: fewer connections, longer
    // rounds, so that each round completes requests.
    const loads = [
      {
        name: 'bytes=0- (to the end)',
        headers: { Range: 'bytes=0-' },
        script: '',
        perRequest: bytes.length,
        connections: 2,
        seconds: seconds * 1.5,
      },
      {
        name: `${rangeMiB} MiB ranges across the file`,
        headers: {},
        script: rangeScript(bytes.length, chunk),
        perRequest: chunk,
        connections,
        seconds,
      },
    ];
    const watched = processes.filter((p) => p.name === 'gateway' || p.name === 'file-conversion');
    const cpu = Object.fromEntries(watched.map((p) => [p.name, 0]));
    let servedMiB = 0;
    let hits = 0;
    let timed = 0;
    const rows = [];
    const ratios = [];
    for (const load of loads) {
      const opts = {
        connections: load.connections,
        seconds: load.seconds,
        threads: 2,
        script: load.script,
        timeoutSeconds: 60,
      };
      const nginxOpts = { ...opts, headers: load.headers };
      const gatewayOpts = { ...opts, headers: { ...load.headers, cookie } };
      await runWrk(nginx.url, { ...nginxOpts, seconds: 1 }); // warm-up, not counted
      await runWrk(gatewayUrl, { ...gatewayOpts, seconds: 1 });
      const n = [];
      const g = [];
      for (let round = 0; round < rounds; round++) {
        n.push(await runWrk(nginx.url, nginxOpts));
        const before = watched.map((p) => cpuMs(p.pid));
        const eventsBefore = await cacheEvents(internalUrl);
        g.push(await runWrk(gatewayUrl, gatewayOpts));
        watched.forEach((p, k) => {
          cpu[p.name] += cpuMs(p.pid) - before[k];
        });
        const eventsAfter = await cacheEvents(internalUrl);
        hits += (eventsAfter.hit ?? 0) - (eventsBefore.hit ?? 0);
        timed += g.at(-1).sent || g.at(-1).requests;
        servedMiB += (g.at(-1).requests * load.perRequest) / MiB;
        const mib = (r) => ((r.rps * load.perRequest) / MiB).toFixed(0);
        const [nr, gr] = [n.at(-1), g.at(-1)];
        log(
          `${load.name}, round ${round + 1}: nginx ${mib(nr)} MiB/s p50 ${nr.p50} ms; gateway ${mib(gr)} MiB/s ` +
            `p50 ${gr.p50} ms; ${(gr.rps / nr.rps).toFixed(2)}x` +
            (gr.errors || nr.errors ? ` (socket errors: gateway ${gr.errors ?? 0}, nginx ${nr.errors ?? 0})` : ''),
        );
      }
      const [nrow, grow] = [combine(n, load.perRequest), combine(g, load.perRequest)];
      rows.push({ label: `nginx, 1 worker, ${load.name}`, ...nrow });
      rows.push({ label: `gateway GET /media/video/<id>, ${load.name}`, ...grow });
      ratios.push({ name: load.name, ratio: grow.mibPerSecond / nrow.mibPerSecond, nginx: nrow, gateway: grow });
    }
    const cpuPerMiB = Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, ms / servedMiB]));
    return { rows, ratios, cpuPerMiB, fromCopy: internalUrl ? { hits, requests: timed } : undefined };
  } finally {
    await nginx?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

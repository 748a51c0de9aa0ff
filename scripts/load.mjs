// npm run load [-- <scenario>]: runs a k6 scenario of load/ (default smoke) against the app. Without BASE_URL it
// starts the whole stack quietly on the test profile (gateway on 18090) and stops it afterwards; with BASE_URL it
// aims there instead (loopback only). Exits with k6's code, so a broken threshold fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, root } from './lib/infra.mjs';
import { startStack } from './lib/stack.mjs';
import { ensureGoTool } from './lib/tools.mjs';

const say = (m) => process.stdout.write(`[load] ${m}\n`);
const scenario = process.argv[2] || 'smoke';
const script = join(root, 'load', `${scenario}.js`);
if (!existsSync(script)) {
  const known = readdirSync(join(root, 'load'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3));
  console.error(`[load] no scenario "${scenario}" in load/ (known: ${known.join(', ')})`);
  process.exit(2);
}

const loopback = (url) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\/?$/.test(url);
if (process.env.BASE_URL && !loopback(process.env.BASE_URL)) {
  console.error(
    `[load] BASE_URL must be a loopback origin (localhost, 127.x.x.x or [::1]); got ${process.env.BASE_URL}`,
  );
  process.exit(2);
}

let stack;
let k6;
let stopping = false;
async function finish(code) {
  if (stopping) return;
  stopping = true;
  if (k6 && k6.exitCode === null) k6.kill('SIGINT');
  if (stack) {
    say('stopping the stack ...');
    await stack.stop().catch((e) => say(`stopping failed: ${e.message}`));
  }
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(130));

try {
  const k6Bin = await ensureGoTool('k6');
  let baseUrl = process.env.BASE_URL;
  if (!baseUrl) {
    say('starting the stack (test profile, gateway on 18090; logs in .data/test/logs) ...');
    // screens: the setup pairs many displays from one address, which the default limits would refuse
    const env =
      scenario === 'screens'
        ? {
            RATE_LIMIT_API_MAX: '1000000',
            PAIRING_RATE_MAX: '1000000',
            PAIR_ATTEMPT_RATE_MAX: '1000000',
            // one stream per display (load/lib/fleet-streams.mjs), beyond the gateway's default cap of 10,000
            SSE_MAX_STREAMS: String(Math.max(10_000, 2 * Number(process.env.SCREENS || 100) + 100)),
          }
        : {};
    // LOAD_CPU_PROF=<dir>: every process of the stack writes a V8 CPU profile there when it stops (docs/scale.md)
    if (process.env.LOAD_CPU_PROF) env.PAGECAST_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${process.env.LOAD_CPU_PROF}`;
    stack = await startStack({ profile: 'test', port: 18090, quiet: true, env });
    baseUrl = `http://127.0.0.1:18090`;
  }
  if (scenario === 'screens') {
    // paired displays through the real API before k6 starts (load/lib/pair-screens.mjs)
    const { pairScreens } = await import('../load/lib/pair-screens.mjs');
    const count = Math.min(Number(process.env.SCREENS || 100), 20_000);
    const out = join(root, '.data', 'test', 'load-screens.json');
    say(`pairing ${count} screens ...`);
    const pairingStarted = performance.now();
    const paired = await pairScreens({
      base: baseUrl,
      mailUrl: stack?.mailUrl ?? process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
      count,
      out,
      corpus: process.env.PAGECAST_CORPUS_PDF ?? join(corpusDir(), 'pdf'),
      mode: process.env.PAIRING === 'single' ? 'single' : 'bulk',
      say,
    });
    say(`${paired} screens paired in ${((performance.now() - pairingStarted) / 1000).toFixed(1)} s`);
    process.env.SCREENS_FILE = out;
  }
  // screens: the gateway's and the screens service's memory before and while the displays are connected
  const memory = scenario === 'screens' && stack ? watchMemory(stack) : null;
  if (memory) await memory.first;
  // screens: every display's live stream, held in Node (load/lib/fleet-streams.mjs), and the probes that use them
  let fleet = null;
  if (scenario === 'screens') {
    const { readFileSync } = await import('node:fs');
    const { holdFleetStreams } = await import('../load/lib/fleet-streams.mjs');
    const setup = JSON.parse(readFileSync(process.env.SCREENS_FILE, 'utf8'));
    const streams = holdFleetStreams({ base: baseUrl, setup });
    const t0 = performance.now();
    const open = await streams.opened;
    say(`${open}/${setup.screens.length} display streams open in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    fleet = { setup, streams };
  }
  say(`k6 run load/${scenario}.js against ${baseUrl}`);
  // screens: a playlist edit a quarter into the run and a takeover in the middle, timed until every display has it
  let probe = null;
  let edit = null;
  if (fleet) {
    const { takeoverProbe } = await import('../load/lib/takeover-probe.mjs');
    const { editProbe } = await import('../load/lib/fleet-streams.mjs');
    const runMs = runSeconds(process.env.DURATION || '45s') * 1000;
    edit = editProbe({ base: baseUrl, ...fleet, atMs: runMs / 4, say });
    probe = takeoverProbe({ base: baseUrl, ...fleet, atMs: runMs / 2, say });
  }
  const summaryFile = join(root, '.data', 'test', `load-${scenario}-summary.json`);
  // CPU of the gateway and the screens service over the k6 run (their /metrics), and the run's bounds on the
  // monotonic clock the V8 CPU profiles use (LOAD_CPU_PROF), to cut the profiles to the run
  const cpuBefore = memory ? await memory.cpu() : null;
  const k6Start = process.hrtime.bigint() / 1000n;
  const code = await new Promise((resolve) => {
    k6 = spawn(k6Bin, ['run', '--no-usage-report', '--quiet', '--summary-export', summaryFile, script], {
      cwd: root,
      env: { ...process.env, BASE_URL: baseUrl, K6_NO_USAGE_REPORT: 'true' },
      stdio: 'inherit',
    });
    k6.on('close', (c) => resolve(c ?? 1));
  });
  const k6End = process.hrtime.bigint() / 1000n;
  const cpuAfter = memory ? await memory.cpu() : null;
  if (memory) memory.report(Number(process.env.SCREENS || 100));
  if (cpuBefore && cpuAfter) printCpu(cpuBefore, cpuAfter, summaryFile);
  if (process.env.LOAD_CPU_PROF) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(process.env.LOAD_CPU_PROF, 'marks.json'),
      JSON.stringify({ k6StartUs: Number(k6Start), k6EndUs: Number(k6End), screens: Number(process.env.SCREENS) }),
    );
  }
  let takeoverShown = true;
  let editShown = true;
  if (probe) {
    takeoverShown = await probe.done;
    editShown = (await edit).all;
    await probe.end();
  }
  if (scenario === 'screens') printCalls(summaryFile);
  let stormPlayed = true;
  if (fleet) {
    say(
      `streams during the run: ${fleet.streams.counts.ended} ended by the server, ${fleet.streams.counts.refused} refused`,
    );
    // STORM_SPREAD_S=0 leaves the storm out
    const spread = Number(process.env.STORM_SPREAD_S ?? 15);
    if (spread > 0) {
      const { powerCutStorm } = await import('../load/lib/fleet-streams.mjs');
      stormPlayed = await powerCutStorm({ base: baseUrl, ...fleet, spreadMs: spread * 1000, say });
    }
    fleet.streams.close();
  }
  say(code === 0 ? 'passed' : `k6 exited ${code} (a check or threshold failed)`);
  if (!takeoverShown) say('the takeover did not reach every display');
  if (!editShown) say('the playlist edit did not reach every display');
  if (!stormPlayed) say('after the power cut, some displays never played');
  await finish(code || (takeoverShown && editShown && stormPlayed ? 0 : 1));
} catch (e) {
  console.error(`[load] ${e.stack || e.message}`);
  await finish(1);
}

/** CPU seconds of each process over the k6 run, and per request k6 made (the probes' reads and the streams are in
 * the CPU, not in the count). */
function printCpu(before, after, file) {
  let requests = Number.NaN;
  try {
    requests = JSON.parse(readFileSync(file, 'utf8')).metrics.http_reqs.count;
  } catch {}
  for (const name of Object.keys(after)) {
    const used = after[name] - before[name];
    say(
      `${name}: ${used.toFixed(1)} s of CPU during the k6 run, ${((used * 1000) / requests).toFixed(2)} ms per k6 request (${requests})`,
    );
  }
}

/** One line per call of the screens scenario from k6's summary: p95, p50, requests and errors. */
function printCalls(file) {
  let metrics;
  try {
    metrics = JSON.parse(readFileSync(file, 'utf8')).metrics;
  } catch {
    return;
  }
  for (const name of ['heartbeat', 'manifest', 'plays', 'content', 'images', 'fleet-health']) {
    const d = metrics[`http_req_duration{name:${name}}`];
    const f = metrics[`http_req_failed{name:${name}}`];
    if (!d) continue;
    const calls = f ? f.passes + f.fails : Number.NaN;
    say(
      `${name}: p95 ${d['p(95)'].toFixed(1)} ms, p50 ${d.med.toFixed(1)} ms, max ${d.max.toFixed(0)} ms; ` +
        `${calls} calls, ${f ? f.passes : '?'} failed`,
    );
  }
}

/** Seconds of a k6 duration ('45s', '2m', '1h'), clamped like load/screens.js (at most 180 s). */
function runSeconds(duration) {
  const m = /^(\d+)(s|m|h)$/.exec(duration);
  return m ? Math.min(Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2]], 180) : 45;
}

/** Samples each process's resident memory (its /metrics) every 5 s; report() prints the rise per connected screen. */
function watchMemory(running) {
  const sources = {
    gateway: `${running.internalUrl}/metrics`,
    screens: `http://127.0.0.1:${running.ports.screens}/metrics`,
  };
  const read = async (url) => {
    const text = await (await fetch(url)).text();
    const m = text.match(/^process_resident_memory_bytes(?:\{[^}]*\})? ([0-9.e+]+)/m);
    return m ? Number(m[1]) : Number.NaN;
  };
  const base = {};
  const peak = {};
  const sample = async () => {
    for (const [name, url] of Object.entries(sources)) {
      const v = await read(url).catch(() => Number.NaN);
      if (!Number.isFinite(v)) continue;
      base[name] ??= v;
      peak[name] = Math.max(peak[name] ?? 0, v);
    }
  };
  const cpuOf = async (url) => {
    const text = await (await fetch(url)).text();
    const m = text.match(/^process_cpu_seconds_total(?:\{[^}]*\})? ([0-9.e+]+)/m);
    return m ? Number(m[1]) : Number.NaN;
  };
  const first = sample();
  // every 5 s: each scrape reads the process's open descriptors (prom-client's default metrics), thousands of
  // sockets here, which cost the gateway about 4 % of its CPU when sampled every 2 s (docs/scale.md)
  const timer = setInterval(sample, 5000);
  return {
    first,
    /** each process's CPU seconds so far */
    async cpu() {
      const out = {};
      for (const [name, url] of Object.entries(sources)) out[name] = await cpuOf(url).catch(() => Number.NaN);
      return out;
    },
    report(screens) {
      clearInterval(timer);
      for (const name of Object.keys(sources)) {
        if (base[name] === undefined) continue;
        const rise = peak[name] - base[name];
        say(
          `${name}: resident ${(base[name] / 2 ** 20).toFixed(0)} MiB before, ${(peak[name] / 2 ** 20).toFixed(0)} MiB ` +
            `at most while ${screens} screens were connected: ${(rise / 1024 / screens).toFixed(1)} KiB per screen`,
        );
      }
    },
  };
}

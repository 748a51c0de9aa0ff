// npm run load [-- <scenario>]: runs a k6 scenario of load/ (default smoke) against the app. Without BASE_URL it
// starts the whole stack quietly on the test profile (gateway on 18090) and stops it afterwards; with BASE_URL it
// aims there instead (loopback only). Exits with k6's code, so a broken threshold fails the run.
// screens: on a FerretDB of the load's own, kept from run to run, or new and empty with FRESH_DB=1
// (load/lib/load-database.mjs); at the end one block with every figure of the run, and the same as one JSON line.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
let database;
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
  await database?.stop().catch((e) => say(`stopping the load's FerretDB failed: ${e.message}`));
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
    if (scenario === 'screens') {
      const { loadDatabase } = await import('../load/lib/load-database.mjs');
      database = await loadDatabase({ say });
    }
    stack = await startStack({ profile: 'test', port: 18090, quiet: true, env });
    baseUrl = `http://127.0.0.1:18090`;
  }
  if (scenario === 'screens' && !database && process.env.FRESH_DB === '1')
    throw new Error('FRESH_DB=1 with BASE_URL: the load makes a fresh database only for the stack it starts');
  const figures = {
    screens: Math.min(Number(process.env.SCREENS || 100), 20_000),
    // fresh, kept (from earlierRuns runs) or given (MONGO_URL, or BASE_URL's stack)
    database: database
      ? { mode: database.mode, earlierRuns: database.earlierRuns, text: database.text }
      : { mode: 'given', earlierRuns: null, text: process.env.MONGO_URL ?? `the stack at ${baseUrl}` },
  };
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
    figures.pairingS = Number(((performance.now() - pairingStarted) / 1000).toFixed(1));
    say(`${paired} screens paired in ${figures.pairingS} s`);
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
  // the machine's load over the last minute of the k6 run: above the core count, the run shared the cores
  figures.loadAverage = Number(loadavg()[0].toFixed(1));
  const cpuAfter = memory ? await memory.cpu() : null;
  if (memory) figures.kibPerScreen = memory.report(figures.screens);
  if (cpuBefore && cpuAfter) figures.cpuMsPerRequest = printCpu(cpuBefore, cpuAfter, summaryFile);
  if (process.env.LOAD_CPU_PROF) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    // the profiles are written there when the processes stop: the directory may not exist yet
    mkdirSync(process.env.LOAD_CPU_PROF, { recursive: true });
    writeFileSync(
      join(process.env.LOAD_CPU_PROF, 'marks.json'),
      JSON.stringify({ k6StartUs: Number(k6Start), k6EndUs: Number(k6End), screens: Number(process.env.SCREENS) }),
    );
  }
  let takeoverShown = true;
  let editShown = true;
  if (probe) {
    const takenOver = await probe.done;
    takeoverShown = takenOver.all;
    figures.takeover = { p95Ms: round(takenOver.p95), allMs: round(takenOver.allMs), shown: takenOver.shown };
    const edited = await edit;
    editShown = edited.all;
    figures.edit = { p95Ms: round(edited.p95), allMs: round(edited.allMs), shown: edited.shown };
    await probe.end();
  }
  if (scenario === 'screens') Object.assign(figures, printCalls(summaryFile));
  let stormPlayed = true;
  if (fleet) {
    say(
      `streams during the run: ${fleet.streams.counts.ended} ended by the server, ${fleet.streams.counts.refused} refused`,
    );
    // STORM_SPREAD_S=0 leaves the storm out
    const spread = Number(process.env.STORM_SPREAD_S ?? 15);
    if (spread > 0) {
      const { powerCutStorm } = await import('../load/lib/fleet-streams.mjs');
      const storm = await powerCutStorm({ base: baseUrl, ...fleet, spreadMs: spread * 1000, say });
      stormPlayed = storm.all;
      figures.storm = {
        spreadS: spread,
        playing: storm.playing,
        allS: Number.isFinite(storm.allMs) ? Number((storm.allMs / 1000).toFixed(1)) : null,
        p95FromBootMs: round(storm.p95FromBootMs),
        refusals: storm.refusals,
      };
    }
    fleet.streams.close();
  }
  if (scenario === 'screens') {
    figures.passed = code === 0 && takeoverShown && editShown && stormPlayed;
    printSummary(figures);
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
  const perRequest = {};
  for (const name of Object.keys(after)) {
    const used = after[name] - before[name];
    perRequest[name] = Number(((used * 1000) / requests).toFixed(2));
    say(
      `${name}: ${used.toFixed(1)} s of CPU during the k6 run, ${((used * 1000) / requests).toFixed(2)} ms per k6 request (${requests})`,
    );
  }
  return perRequest;
}

/** A figure in whole units, or null when there is none. */
function round(v) {
  return Number.isFinite(v) ? Math.round(v) : null;
}

/**
 * One line per call of the screens scenario from k6's summary (p95, p50, requests and errors), the manifest's 304s,
 * and the play batches and records by outcome (load/screens.js); returns them for the closing summary.
 */
function printCalls(file) {
  let metrics;
  try {
    metrics = JSON.parse(readFileSync(file, 'utf8')).metrics;
  } catch {
    return {};
  }
  const calls = {};
  for (const name of ['heartbeat', 'manifest', 'plays', 'content', 'images', 'fleet-health']) {
    const d = metrics[`http_req_duration{name:${name}}`];
    const f = metrics[`http_req_failed{name:${name}}`];
    if (!d) continue;
    // http_req_failed is a rate: its "passes" are the failed requests
    calls[name] = {
      p95: Number(d['p(95)'].toFixed(1)),
      calls: f ? f.passes + f.fails : null,
      failed: f?.passes ?? null,
    };
    say(
      `${name}: p95 ${d['p(95)'].toFixed(1)} ms, p50 ${d.med.toFixed(1)} ms, max ${d.max.toFixed(0)} ms; ` +
        `${calls[name].calls} calls, ${f ? f.passes : '?'} failed`,
    );
  }
  const m304 = metrics.manifest_304;
  if (m304) {
    calls['manifest-304'] = { p95: Number(m304['p(95)'].toFixed(1)), calls: null, failed: null };
    say(`manifest answered 304: p95 ${m304['p(95)'].toFixed(1)} ms, p50 ${m304.med.toFixed(1)} ms`);
  }
  const byOutcome = (metric) => {
    const out = {};
    for (const [key, v] of Object.entries(metrics)) {
      const m = key.match(new RegExp(`^${metric}\\{outcome:(.+)\\}$`));
      if (m && v.count > 0) out[m[1]] = v.count;
    }
    return out;
  };
  const batches = byOutcome('play_batches');
  const records = byOutcome('play_records');
  const sent = Object.values(batches).reduce((a, b) => a + b, 0);
  const { accepted = 0, 'records-refused': someRefused = 0, ...refusedWhole } = batches;
  const { accepted: recAccepted = 0, duplicate = 0, ...recRefused } = records;
  const plays = {
    batches: { sent, accepted, someRecordsRefused: someRefused, refused: refusedWhole },
    records: { accepted: recAccepted, duplicates: duplicate, refused: recRefused },
  };
  const list = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  say(
    `play batches: ${sent} sent, ${accepted} counted whole, ${someRefused} with records refused, ` +
      `${sent - accepted - someRefused} refused whole (${list(refusedWhole)}); records: ${recAccepted} accepted, ` +
      `${duplicate} duplicates, refused: ${list(recRefused)}`,
  );
  const failed = metrics.http_req_failed;
  const checks = metrics.checks;
  return {
    calls,
    plays,
    errors: {
      requests: failed ? failed.passes : null,
      of: failed ? failed.passes + failed.fails : null,
      checksFailed: checks ? checks.fails : null,
    },
  };
}

/**
 * The closing block of the screens scenario: every figure of the run in one place (the closing note quotes it), then
 * the same as one JSON line.
 */
function printSummary(f) {
  const c = f.calls ?? {};
  const p95 = (name) => (c[name] ? `${c[name].p95} ms` : 'n/a');
  const ms = (v) => (v === null || v === undefined ? 'n/a' : `${v} ms`);
  const pair = (o, unit) =>
    o
      ? Object.entries(o)
          .map(([k, v]) => `${k} ${v ?? 'n/a'}${unit}`)
          .join(', ')
      : 'n/a';
  const list = (o) =>
    Object.entries(o ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const p = f.plays;
  const lines = [
    `N ${f.screens} screens; database: ${f.database.text}; pairing ${f.pairingS ?? 'n/a'} s; load average ${f.loadAverage} at the end of k6; ${f.passed ? 'passed' : 'FAILED'}`,
    `p95: heartbeat ${p95('heartbeat')}, manifest ${p95('manifest')} (304s ${p95('manifest-304')}), plays ${p95('plays')}, ` +
      `content ${p95('content')}, images ${p95('images')}, fleet health ${p95('fleet-health')}`,
    `errors: ${f.errors?.requests ?? 'n/a'} failed requests of ${f.errors?.of ?? 'n/a'}, ${f.errors?.checksFailed ?? 'n/a'} failed checks` +
      ` (per call: ${Object.entries(c)
        .filter(([, v]) => v.failed !== null)
        .map(([k, v]) => `${k} ${v.failed}/${v.calls}`)
        .join(', ')})`,
    p
      ? `plays: ${p.batches.sent} batches sent, ${p.batches.accepted} counted whole, ${p.batches.someRecordsRefused} with ` +
        `records refused, refused whole: ${list(p.batches.refused)}; records ${p.records.accepted} accepted, ` +
        `${p.records.duplicates} duplicates, refused: ${list(p.records.refused)}`
      : 'plays: n/a',
    `memory per screen: ${pair(f.kibPerScreen, ' KiB')}; CPU per k6 request: ${pair(f.cpuMsPerRequest, ' ms')}`,
    `playlist edit to every display: p95 ${ms(f.edit?.p95Ms)}, all ${ms(f.edit?.allMs)} (${f.edit?.shown ?? 'n/a'}/${f.screens}); ` +
      `takeover: p95 ${ms(f.takeover?.p95Ms)}, all ${ms(f.takeover?.allMs)} (${f.takeover?.shown ?? 'n/a'}/${f.screens})`,
    f.storm
      ? `storm (back within ${f.storm.spreadS} s): ${f.storm.playing}/${f.screens} playing, all after ` +
        `${f.storm.allS === null ? 'never' : `${f.storm.allS} s`}, p95 from boot ${ms(f.storm.p95FromBootMs)}; ` +
        `refused calls (tried again): ${list(f.storm.refusals)}`
      : 'storm: not run (STORM_SPREAD_S=0)',
  ];
  process.stdout.write(`\n[load] ===== summary =====\n${lines.map((l) => `[load] ${l}`).join('\n')}\n`);
  process.stdout.write(`[load] summary-json ${JSON.stringify(f)}\n`);
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
      const perScreen = {};
      for (const name of Object.keys(sources)) {
        if (base[name] === undefined) continue;
        const rise = peak[name] - base[name];
        perScreen[name] = Number((rise / 1024 / screens).toFixed(1));
        say(
          `${name}: resident ${(base[name] / 2 ** 20).toFixed(0)} MiB before, ${(peak[name] / 2 ** 20).toFixed(0)} MiB ` +
            `at most while ${screens} screens were connected: ${(rise / 1024 / screens).toFixed(1)} KiB per screen`,
        );
      }
      return perScreen;
    },
  };
}

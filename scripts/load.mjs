// npm run load [-- <scenario>]: runs a k6 scenario of load/ (default smoke) against the app. Without BASE_URL it
// starts the whole stack quietly on the test profile (gateway on 18090) and stops it afterwards; with BASE_URL it
// aims there instead (loopback only). Exits with k6's code, so a broken threshold fails the run.
// screens: on a FerretDB of the load's own, kept from run to run, or new and empty with FRESH_DB=1
// (load/lib/load-database.mjs); at the end one block with every figure of the run, and the same as one JSON line.
// Over the socket the displays sign their play batches (load/lib/play-signing.js); after the run the signed batches
// the screens service kept for them are counted in its database, and fewer than the displays saw taken fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { corpusDir, root } from './lib/infra.mjs';
import {
  coresOf,
  cpuByPhase,
  cpuPerDisplayHour,
  kernelUnits,
  heldPerDisplay,
  kibPerDisplay,
  parseStat,
  pinning,
  pinProcess,
  stackSampler,
} from '../load/lib/stack-cpu.mjs';
import { goals } from '../load/lib/goals.mjs';
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

// screens: the displays over their socket (load/lib/screens-socket.js, docs/device-socket.md), or over HTTP with a
// live stream each (TRANSPORT=http: load/screens.js, the fallback path's load)
const transport = scenario === 'screens' ? (process.env.TRANSPORT === 'http' ? 'http' : 'ws') : null;

const loopback = (url) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\/?$/.test(url);
if (process.env.BASE_URL && !loopback(process.env.BASE_URL)) {
  console.error(
    `[load] BASE_URL must be a loopback origin (localhost, 127.x.x.x or [::1]); got ${process.env.BASE_URL}`,
  );
  process.exit(2);
}

/** k6's REST API while LOAD_CPU_PROF profiles it (its pprof endpoints; loopback only) */
const K6_API = '127.0.0.1:6566';
let stack;
let database;
let sideServers;
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
  await sideServers?.stop().catch((e) => say(`stopping the load's MinIO and maildev failed: ${e.message}`));
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(130));

// screens, on the stack it starts: the stack on one core, the load generator (this process, k6, the probes) on
// another (PIN=0: wherever the kernel puts them, for a machine with one core)
const cores = scenario === 'screens' && !process.env.BASE_URL ? pinning() : null;
if (cores) pinProcess(process.pid, cores.load);

try {
  const k6Bin = await ensureGoTool('k6');
  let baseUrl = process.env.BASE_URL;
  if (!baseUrl) {
    // LOAD_PROFILE=dev: the dev profile's servers (its localstripe) and ports, so a run takes no test port and needs
    // no e2e lock; the stack still gets its own NATS, FerretDB, MinIO and maildev, and NODE_ENV=test
    const profile = process.env.LOAD_PROFILE === 'dev' ? 'dev' : 'test';
    const port = profile === 'dev' ? Number(process.env.LOAD_PORT || 18190) : 18090;
    say(`starting the stack (${profile} profile, gateway on ${port}; logs in .data/${profile}/logs) ...`);
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
    // --expose-gc: the gateway's memory per display is read after a full collection (its /debug/settled-memory)
    env.PAGECAST_NODE_ARGS = [
      ...(scenario === 'screens' ? ['--expose-gc'] : []),
      ...(process.env.LOAD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOAD_CPU_PROF}`] : []),
    ].join(' ');
    if (scenario === 'screens') {
      const { loadDatabase, loadSideServers } = await import('../load/lib/load-database.mjs');
      database = await loadDatabase({ say, cpus: cores?.stack });
      sideServers = await loadSideServers({ say, cpus: cores?.stack });
    }
    if (profile === 'dev') env.NODE_ENV = process.env.NODE_ENV || 'test';
    const isolate = profile === 'dev' ? true : undefined;
    stack = await startStack({ profile, port, quiet: true, env, isolate, cpus: cores?.stack ?? null });
    baseUrl = `http://127.0.0.1:${port}`;
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
  // screens: every stack process's CPU and memory from /proc (load/lib/stack-cpu.mjs), before the displays connect
  const watch = scenario === 'screens' && stack ? watchStack() : null;
  if (watch) {
    figures.cores = watch.cores();
    say(
      cores
        ? `pinned: the stack on core ${cores.stack}, the load generator on core ${cores.load} (${Object.entries(
            figures.cores.stack,
          )
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}; harness ${figures.cores.harness})`
        : `not pinned (${process.env.PIN === '0' ? 'PIN=0' : 'one core'}): stack and load generator share the cores`,
    );
  }
  const rssBefore = watch?.sample();
  // the gateway's memory after a full collection, before the displays connect and once they all are (before the storm)
  const settledUrl = stack?.internalUrl ? `${stack.internalUrl}/debug/settled-memory` : null;
  const settled = async () => {
    if (!settledUrl) return null;
    try {
      const r = await fetch(settledUrl);
      return r.ok ? await r.json() : null;
    } catch {
      return null;
    }
  };
  const settledBefore = scenario === 'screens' ? await settled() : null;
  let settledHeld = null;
  // screens over HTTP: every display's live stream, held in Node (load/lib/fleet-streams.mjs), and the probes that
  // use them. Over the socket, k6 holds the sockets and times the probes and the storm itself (load/lib/screens-socket.js)
  let fleet = null;
  if (transport === 'http') {
    const { holdFleetStreams } = await import('../load/lib/fleet-streams.mjs');
    const setup = JSON.parse(readFileSync(process.env.SCREENS_FILE, 'utf8'));
    const streams = holdFleetStreams({ base: baseUrl, setup });
    const t0 = performance.now();
    const open = await streams.opened;
    say(`${open}/${setup.screens.length} display streams open in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    fleet = { setup, streams };
  }
  const k6Script = transport === 'ws' ? join(root, 'load', 'lib', 'screens-socket.js') : script;
  say(
    `k6 run ${k6Script.slice(root.length + 1)} against ${baseUrl}${transport ? ` (displays over ${transport})` : ''}`,
  );
  const runMs = runSeconds(process.env.DURATION || (transport === 'ws' ? '5m' : '45s'), transport) * 1000;
  const bootSpreadMs = Number(process.env.BOOT_SPREAD_S ?? 15) * 1000;
  const spreadS = Number(process.env.STORM_SPREAD_S ?? 15);
  // the run's moments on the wall clock k6 shares (one machine): k6 starts its VUs within `slack`
  const slack = 3000 + figures.screens / 2;
  const t0 = Date.now() + slack;
  const moments =
    transport === 'ws'
      ? { EDIT_AT_MS: t0 + runMs / 4, TAKEOVER_AT_MS: t0 + runMs / 2, STORM_AT_MS: spreadS > 0 ? t0 + runMs : 0 }
      : {};
  // screens: a playlist edit a quarter into the run and a takeover in the middle, timed until every display has it
  let probe = null;
  let edit = null;
  let socketProbes = null;
  if (fleet) {
    const { takeoverProbe } = await import('../load/lib/takeover-probe.mjs');
    const { editProbe } = await import('../load/lib/fleet-streams.mjs');
    edit = editProbe({ base: baseUrl, ...fleet, atMs: runMs / 4, say });
    probe = takeoverProbe({ base: baseUrl, ...fleet, atMs: runMs / 2, say });
  } else if (transport === 'ws') {
    const { socketProbes: fire } = await import('../load/lib/socket-probes.mjs');
    socketProbes = fire({
      base: baseUrl,
      setup: JSON.parse(readFileSync(process.env.SCREENS_FILE, 'utf8')),
      editAt: moments.EDIT_AT_MS,
      takeoverAt: moments.TAKEOVER_AT_MS,
      say,
    });
  }
  const summaryFile = join(root, '.data', 'test', `load-${scenario}-summary.json`);
  // the stack's CPU over the steady run: from when every display has booted (the boot spread and 5 s more) until the
  // storm (over the socket) or k6's end; the peak resident size over the whole k6 run. And the run's bounds on the
  // monotonic clock the V8 CPU profiles use (LOAD_CPU_PROF), to cut the profiles to the run
  let cpuBefore = watch?.sample();
  let windowStart = performance.now();
  let cpuAtEnd = null;
  let windowEnd = null;
  let goProfile = null;
  let k6Profile = null;
  // the load generator's own CPU (k6 and this process, on their core) over the same window: near a whole core, the
  // figures are the generator's limit, not the stack's
  // (k6 reaped moves its time into this process's children's count: both are read)
  const generatorTicks = () => {
    let ticks = 0;
    for (const pid of [process.pid, k6?.pid]) {
      try {
        const st = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        ticks += st.utime + st.stime + (pid === process.pid ? st.cutime + st.cstime : 0);
      } catch {}
    }
    return ticks;
  };
  let genBefore = generatorTicks();
  let genAtEnd = null;
  // the same window on the monotonic clock of the V8 profiles (LOAD_CPU_PROF)
  let windowStartUs = null;
  let windowEndUs = null;
  const timers = [];
  if (watch) {
    watch.watchPeak();
    const steadyAfter = slack + bootSpreadMs + 5000;
    timers.push(
      setTimeout(() => {
        genBefore = generatorTicks();
        cpuBefore = watch.sample();
        windowStart = performance.now();
        windowStartUs = process.hrtime.bigint() / 1000n;
      }, steadyAfter),
    );
    // LOAD_CPU_PROF: FerretDB's and k6's CPU profiles over the same window (Go's pprof; profile-summary prints their
    // top): k6's, because a generator near its whole core times its own delays, not the stack's
    if (process.env.LOAD_CPU_PROF) {
      const windowEndsAt = moments.STORM_AT_MS || t0 + runMs;
      // until the window's end; asked again while the server is not listening yet (k6 opens its API after its
      // init, which reads the screens file: tens of seconds at thousands of displays)
      const profileOf = async (url, who) => {
        for (;;) {
          const seconds = Math.floor((windowEndsAt - Date.now()) / 1000);
          if (seconds < 5) return void say(`${who}'s profile: not reachable in the window`);
          try {
            const r = await fetch(`${url}/debug/pprof/profile?seconds=${seconds}`);
            if (!r.ok) return void say(`${who}'s profile: HTTP ${r.status}`);
            return Buffer.from(await r.arrayBuffer());
          } catch (e) {
            if (e.cause?.code !== 'ECONNREFUSED') return void say(`${who}'s profile: ${e.message}`);
            await new Promise((r) => setTimeout(r, 1000));
          }
        }
      };
      timers.push(
        setTimeout(() => {
          if (database?.debugUrl) goProfile = profileOf(database.debugUrl, 'FerretDB');
          k6Profile = profileOf(`http://${K6_API}`, 'k6');
        }, steadyAfter),
      );
    }
    // every display connected and past its boot, the edit and the takeover read: 3 s before the storm or k6's end
    if (settledBefore)
      timers.push(
        setTimeout(
          () => void settled().then((m) => (settledHeld = m)),
          (moments.STORM_AT_MS || t0 + runMs) - 3000 - Date.now(),
        ),
      );
    if (moments.STORM_AT_MS)
      timers.push(
        setTimeout(() => {
          cpuAtEnd = watch.sample();
          genAtEnd = generatorTicks();
          windowEnd = performance.now();
          windowEndUs = process.hrtime.bigint() / 1000n;
        }, moments.STORM_AT_MS - Date.now()),
      );
  }
  const k6Start = process.hrtime.bigint() / 1000n;
  const code = await new Promise((resolve) => {
    const profiling = process.env.LOAD_CPU_PROF ? ['--address', K6_API, '--profiling-enabled'] : [];
    k6 = spawn(
      k6Bin,
      ['run', '--no-usage-report', '--quiet', ...profiling, '--summary-export', summaryFile, k6Script],
      {
        cwd: root,
        env: {
          ...process.env,
          BASE_URL: baseUrl,
          K6_NO_USAGE_REPORT: 'true',
          ...(transport === 'ws'
            ? {
                // one VU per 50 displays unless told
                VUS: process.env.VUS || String(Math.min(500, Math.ceil(figures.screens / 50))),
                ORIGIN: stack?.env.PUBLIC_URL ?? baseUrl,
                ...Object.fromEntries(Object.entries(moments).map(([k, v]) => [k, String(Math.round(v))])),
              }
            : {}),
        },
        stdio: 'inherit',
      },
    );
    if (figures.cores) setTimeout(() => (figures.cores.k6 = coresOf(k6.pid)), 1000).unref();
    k6.on('close', (c) => resolve(c ?? 1));
  });
  const k6End = process.hrtime.bigint() / 1000n;
  for (const t of timers) clearTimeout(t);
  // the machine's load over the last minute of the k6 run: above the core count, the run shared the cores
  figures.loadAverage = Number(loadavg()[0].toFixed(1));
  // the display sockets the gateway refused over the run, by the code answered (none expected: a refusal beside
  // k6's own failed connects says whose it was); one scrape of its metrics, after k6's end
  if (scenario === 'screens' && stack?.internalUrl) {
    const metrics = await fetch(`${stack.internalUrl}/metrics`)
      .then((r) => (r.ok ? r.text() : ''))
      .catch(() => '');
    figures.socketRefusals = Object.fromEntries(
      [...metrics.matchAll(/^gateway_device_socket_refused_total\{[^}]*code="(\w+)"[^}]*\} (\d+)$/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    const refused = Object.entries(figures.socketRefusals);
    say(
      `display socket upgrades refused by the gateway: ${refused.length ? refused.map(([c, n]) => `${c} ${n}`).join(', ') : 'none'}`,
    );
  }
  if (watch) {
    const cpuAfter = cpuAtEnd ?? watch.sample();
    const peak = watch.stopPeak();
    figures.cpu = cpuPerDisplayHour({
      before: cpuBefore,
      after: cpuAfter,
      ticksPerSecond: kernelUnits().ticksPerSecond,
      displays: figures.screens,
      seconds: ((windowEnd ?? performance.now()) - windowStart) / 1000,
    });
    figures.phases = cpuByPhase({
      timeline: watch.timeline,
      ticksPerSecond: kernelUnits().ticksPerSecond,
      displays: figures.screens,
      marks: {
        start: t0,
        steady: t0 + bootSpreadMs + 5000,
        edit: moments.EDIT_AT_MS,
        takeover: moments.TAKEOVER_AT_MS,
        storm: moments.STORM_AT_MS,
        end: watch.timeline.at(-1)?.at ?? Date.now(),
      },
    });
    if (figures.phases) {
      const p = figures.phases;
      const ms = (v) => (v === null ? 'n/a' : `${v} ms`);
      say(
        `the stack's CPU by phase (sampled every 5 s): each display's boot ${ms(p.bootMsPerDisplay)} (${p.bootCpuS ?? 'n/a'} s in all); ` +
          `the quiet fleet ${p.quietCoreShare ?? 'n/a'} of a core, ${p.quietPerDisplayHour ?? 'n/a'} s per display-hour (the steady run less 20 s after ` +
          `the edit and after the takeover); the edit ${ms(p.editMsPerDisplay)} and the takeover ${ms(p.takeoverMsPerDisplay)} more per display ` +
          `over their 20 s; the storm ${ms(p.stormMsPerDisplay)} per display (${p.stormCpuS ?? 'n/a'} s from the cut to k6's end)`,
      );
    }
    figures.kibPerScreen = kibPerDisplay({
      before: Object.fromEntries(Object.entries(rssBefore).map(([k, v]) => [k, v.rssPages])),
      during: peak,
      pageBytes: kernelUnits().pageBytes,
      displays: figures.screens,
    });
    figures.gatewayHeld = heldPerDisplay(settledBefore, settledHeld, figures.screens);
    if (figures.gatewayHeld) {
      const h = figures.gatewayHeld;
      say(
        `gateway, after a full collection with ${h.sockets} display sockets held: ${h.rssKiB} KiB resident and ` +
          `${h.liveKiB} KiB live (heap ${h.heapKiB} + external ${h.externalKiB}) per display; before the collection ` +
          `${h.uncollectedRssKiB} KiB resident and heap ${h.uncollectedHeapKiB} KiB per display (garbage and headroom); ` +
          `of the resident rise, the V8 heap's pages ${h.heapResidentKiB} KiB and outside it ${h.outsideHeapKiB} KiB per ` +
          `display; before → held (MiB, collected): ${Object.keys(h.mib.held)
            .map((k) => `${k} ${h.mib.before[k]} → ${h.mib.held[k]}`)
            .join(', ')}; V8 spaces held (resident / used MiB): ${Object.entries(h.spacesMiB ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
      );
    }
    figures.cpuMsPerRequest = printCpu(figures.cpu, figures.kibPerScreen, summaryFile);
    figures.generatorCoreShare = Number(
      (((genAtEnd ?? generatorTicks()) - genBefore) / kernelUnits().ticksPerSecond / figures.cpu.windowS).toFixed(2),
    );
    say(
      `the load generator (k6 and this harness): ${Math.round(100 * figures.generatorCoreShare)} % of a core over the same window`,
    );
  }
  if (process.env.LOAD_CPU_PROF) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    // the profiles are written there when the processes stop: the directory may not exist yet
    mkdirSync(process.env.LOAD_CPU_PROF, { recursive: true });
    const ferret = await goProfile;
    if (ferret) writeFileSync(join(process.env.LOAD_CPU_PROF, 'ferretdb.pprof'), ferret);
    const generator = await k6Profile;
    if (generator) writeFileSync(join(process.env.LOAD_CPU_PROF, 'k6.pprof'), generator);
    writeFileSync(
      join(process.env.LOAD_CPU_PROF, 'marks.json'),
      JSON.stringify({
        k6StartUs: Number(k6Start),
        k6EndUs: Number(k6End),
        // the steady window the CPU figures count (profile-summary cuts the profiles to it)
        windowStartUs: Number(windowStartUs ?? k6Start),
        windowEndUs: Number(windowEndUs ?? k6End),
        screens: Number(process.env.SCREENS),
        // every stack process's CPU over the same window, from /proc (profile-summary prints it first)
        cpu: figures.cpu ?? null,
      }),
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
  if (socketProbes) {
    await socketProbes.end();
    const probed = printSocketProbes(summaryFile, figures.screens, moments.STORM_AT_MS ? spreadS : 0);
    Object.assign(figures, probed);
    takeoverShown = figures.takeover.shown === figures.screens;
    editShown = figures.edit.shown === figures.screens;
  }
  if (scenario === 'screens') Object.assign(figures, printCalls(summaryFile, transport));
  const signedKept = transport === 'ws' ? await checkSigned(figures) : true;
  let stormPlayed = !figures.storm || figures.storm.playing === figures.screens;
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
    figures.transport = transport;
    figures.goals = goals(figures);
    figures.passed = code === 0 && takeoverShown && editShown && stormPlayed && signedKept;
    printSummary(figures);
  }
  say(code === 0 ? 'passed' : `k6 exited ${code} (a check or threshold failed)`);
  if (!takeoverShown) say('the takeover did not reach every display');
  if (!editShown) say('the playlist edit did not reach every display');
  if (!stormPlayed) say('after the power cut, some displays never played');
  if (!signedKept) say('SIGNED PLAYS: the screens service did not keep as signed every batch the displays signed');
  await finish(code || (takeoverShown && editShown && stormPlayed && signedKept ? 0 : 1));
} catch (e) {
  console.error(`[load] ${e.stack || e.message}`);
  await finish(1);
}

/**
 * Each stack process's CPU over the k6 run (seconds, per display-hour, per k6 request: the probes' reads and the
 * streams are in the CPU, not in the count) and its resident memory per display; returns the per-request figures.
 */
function printCpu(cpu, kib, file) {
  let requests = Number.NaN;
  try {
    requests = JSON.parse(readFileSync(file, 'utf8')).metrics.http_reqs.count;
  } catch {}
  const perRequest = {};
  for (const [name, p] of Object.entries(cpu.perProcess)) {
    perRequest[name] = Number(((p.cpuS * 1000) / requests).toFixed(2));
    say(
      `${name}: ${p.cpuS.toFixed(1)} s of CPU over ${cpu.windowS.toFixed(0)} s, ${p.perDisplayHour} s per display-hour, ` +
        `${perRequest[name]} ms per k6 request (${requests}); resident ${kib[name] ?? 'n/a'} KiB more per display`,
    );
  }
  say(
    `the stack: ${cpu.cpuS.toFixed(1)} s of CPU over ${cpu.windowS.toFixed(0)} s (${(100 * cpu.coreShare).toFixed(0)} % ` +
      `of one core) for ${cpu.displays} displays: ${cpu.perDisplayHour} CPU seconds per display-hour`,
  );
  return perRequest;
}

/**
 * The signed batches the screens service kept for this run's displays (its database: a batch is kept there only once
 * its signature held), beside those the displays saw taken signed; whether every one was kept and none went unsigned.
 * Without the stack's database (BASE_URL given) it is not checked.
 */
async function checkSigned(f) {
  const signing = f.plays?.signing;
  if (!signing) return false;
  const fine = signing.signed > 0 && Object.keys(signing.wrong).length === 0;
  if (!stack) {
    say("signed batches kept by the screens service: not checked (the stack at BASE_URL is not this run's)");
    return fine;
  }
  const { storedSigned } = await import('../load/lib/signed-batches.mjs');
  const env = stack.env;
  const screenIds = JSON.parse(readFileSync(process.env.SCREENS_FILE, 'utf8')).screens.map((s) => s.screenId);
  let kept;
  try {
    kept = await storedSigned({
      url: env.MONGO_URL,
      dbName: env.MONGO_DB ?? `${env.MONGO_DB_PREFIX ?? ''}pagecast_screens`,
      screenIds,
    });
  } catch (e) {
    say(`signed batches kept by the screens service: could not be read (${e.message})`);
    return false;
  }
  f.plays.signing.kept = kept;
  // a batch kept whose answer the display never had (lost at the run's end) is kept and not counted: at least
  const ok = fine && kept.batches >= signing.signed && kept.keys >= signing.keysBound;
  say(
    `signed batches kept by the screens service for the run's displays: ${kept.batches} (the displays saw ` +
      `${signing.signed} taken signed), keys bound ${kept.keys} (${signing.keysBound} by the displays): ${ok ? 'all' : 'NOT ALL'}`,
  );
  return ok;
}

/** A figure in whole units, or null when there is none. */
function round(v) {
  return Number.isFinite(v) ? Math.round(v) : null;
}

/**
 * One line per call of the screens scenario from k6's summary (p95, p50, requests and errors), the manifest's 304s,
 * and the play batches and records by outcome (load/screens.js); returns them for the closing summary.
 */
function printCalls(file, over) {
  let metrics;
  try {
    metrics = JSON.parse(readFileSync(file, 'utf8')).metrics;
  } catch {
    return {};
  }
  const calls = {};
  const http = (name) => [name, `http_req_duration{name:${name}}`, `http_req_failed{name:${name}}`];
  // over the socket: each call's time from its frame sent until its reply (ws_reply; failures: ws_reply_failed, a
  // reply other than 200 or none within 10 s), the hello until its manifest frame, the upgrade; reads over HTTP
  const sources =
    over === 'ws'
      ? [
          ['heartbeat', 'ws_reply{type:heartbeat}', null],
          ['plays', 'ws_reply{type:plays}', null],
          // the content reads over the socket (the playlist's items, a file's pages); `content`: those over HTTP
          ['playlist', 'ws_reply{type:playlist}', null],
          ['pages', 'ws_reply{type:pages}', null],
          ['hello', 'ws_hello{phase:run}', null],
          ['socket-open', 'ws_connect{phase:run}', null],
          ...['manifest', 'content', 'images', 'fleet-health'].map(http),
        ]
      : ['heartbeat', 'manifest', 'plays', 'content', 'images', 'fleet-health'].map(http);
  for (const [name, durationKey, failedKey] of sources) {
    const d = metrics[durationKey];
    const f = failedKey ? metrics[failedKey] : null;
    if (!d) continue;
    // http_req_failed is a rate: its "passes" are the failed requests
    calls[name] = {
      p95: Number(d['p(95)'].toFixed(1)),
      calls: f ? f.passes + f.fails : null,
      failed: f?.passes ?? null,
    };
    say(
      `${name}: p95 ${d['p(95)'].toFixed(1)} ms, p50 ${d.med.toFixed(1)} ms, max ${d.max.toFixed(0)} ms; ` +
        (f ? `${calls[name].calls} calls, ${f.passes} failed` : 'failures: ws_reply_failed, in the errors line'),
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
  const signing = byOutcome('play_signing');
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
  // over the socket: the displays' keys bound and their batches taken signed (once each), and anything but
  if (over === 'ws') {
    const { 'key-bound': keysBound = 0, signed = 0, ...wrong } = signing;
    plays.signing = { keysBound, signed, wrong };
    say(
      `signing: ${keysBound} display keys bound, ${signed} batches taken signed; ` +
        `keys refused, batches taken unsigned, WebCrypto failures: ${list(wrong)}`,
    );
  }
  say(
    `play batches: ${sent} sent, ${accepted} counted whole, ${someRefused} with records refused, ` +
      `${sent - accepted - someRefused} refused whole (${list(refusedWhole)}); records: ${recAccepted} accepted, ` +
      `${duplicate} duplicates, refused: ${list(recRefused)}`,
  );
  const failed = metrics.http_req_failed;
  const socketFailed = metrics.ws_reply_failed;
  const checks = metrics.checks;
  return {
    calls,
    plays,
    errors: {
      // HTTP requests failed, and over the socket the replies failed or lost (http: none)
      requests: (failed ? failed.passes : 0) + (socketFailed ? socketFailed.passes : 0),
      of: (failed ? failed.passes + failed.fails : 0) + (socketFailed ? socketFailed.passes + socketFailed.fails : 0),
      socketDrops: metrics.ws_drops?.count ?? null,
      checksFailed: checks ? checks.fails : null,
    },
    // manifests the socket gave with their version (read by no display)
    manifestsPushed: metrics.ws_manifests_pushed?.count ?? null,
    // content reads after a change tried again after a failure (as the page does)
    changeReadsRetried: metrics.change_reads_retried?.count ?? 0,
  };
}

/**
 * Over the socket, the probes and the storm as the displays timed them in k6 (load/lib/screens-socket.js): the
 * playlist edit and the takeover from the moment each was made until each display showed it (p95, the last, how
 * many), the storm from the cut until each display played again (p95, the last, how many, refusals tried again).
 */
function printSocketProbes(file, screens, spreadS) {
  let metrics = {};
  try {
    metrics = JSON.parse(readFileSync(file, 'utf8')).metrics;
  } catch {}
  const timed = (trend, count) => ({
    p95Ms: round(metrics[trend]?.['p(95)']),
    allMs: (metrics[count]?.count ?? 0) === screens ? round(metrics[trend]?.max) : null,
    shown: metrics[count]?.count ?? 0,
  });
  const out = {
    edit: timed('probe_edit', 'probe_edit_shown'),
    takeover: timed('probe_takeover', 'probe_takeover_shown'),
  };
  for (const [name, f] of Object.entries(out))
    say(
      `${name} over the socket: ${f.shown}/${screens} displays, p95 ${f.p95Ms ?? 'n/a'} ms, all after ${f.allMs ?? 'n/a'} ms`,
    );
  if (spreadS > 0) {
    const played = timed('storm_playing', 'storm_playing_count');
    const refusals = {};
    for (const [key, v] of Object.entries(metrics)) {
      const m = /^storm_refusals\{outcome:(.+)\}$/.exec(key);
      if (m && v.count > 0) refusals[m[1]] = v.count;
    }
    out.storm = {
      spreadS,
      playing: played.shown,
      allS: played.allMs === null ? null : Number((played.allMs / 1000).toFixed(1)),
      p95FromCutMs: played.p95Ms,
      p95FromBootMs: round(metrics.storm_from_boot?.['p(95)']),
      refusals,
    };
    say(
      `storm over the socket (back within ${spreadS} s): ${played.shown}/${screens} playing, all ${played.allMs ?? 'n/a'} ms ` +
        `after the cut, p95 ${played.p95Ms ?? 'n/a'} ms (from each display's return ${out.storm.p95FromBootMs ?? 'n/a'} ms); ` +
        `refusals tried again: ${JSON.stringify(refusals)}`,
    );
  }
  return out;
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
    `displays over ${f.transport === 'ws' ? 'their socket' : 'HTTP with a live stream each'}; p95: heartbeat ${p95('heartbeat')}, ` +
      `manifest ${p95('manifest')}${f.transport === 'ws' ? `, hello ${p95('hello')}, socket open ${p95('socket-open')}` : ` (304s ${p95('manifest-304')})`}, ` +
      `plays ${p95('plays')}${f.transport === 'ws' ? `, playlist ${p95('playlist')}, pages ${p95('pages')}` : ''}, content ${p95('content')}, images ${p95('images')}, fleet health ${p95('fleet-health')}`,
    `errors: ${f.errors?.requests ?? 'n/a'} failed requests of ${f.errors?.of ?? 'n/a'}, ${f.errors?.checksFailed ?? 'n/a'} failed checks` +
      `${f.errors?.socketDrops !== null && f.errors?.socketDrops !== undefined ? `, ${f.errors.socketDrops} sockets dropped` : ''}` +
      ` (per call: ${Object.entries(c)
        .filter(([, v]) => v.failed !== null)
        .map(([k, v]) => `${k} ${v.failed}/${v.calls}`)
        .join(', ')})`,
    p
      ? `plays: ${p.batches.sent} batches sent, ${p.batches.accepted} counted whole, ${p.batches.someRecordsRefused} with ` +
        `records refused, refused whole: ${list(p.batches.refused)}; records ${p.records.accepted} accepted, ` +
        `${p.records.duplicates} duplicates, refused: ${list(p.records.refused)}` +
        (p.signing
          ? `; signed: ${p.signing.signed} batches taken signed (${p.signing.kept ? `${p.signing.kept.batches} kept signed by screens` : 'kept: not read'}), ` +
            `${p.signing.keysBound} keys bound, anything else: ${list(p.signing.wrong)}`
          : '')
      : 'plays: n/a',
    `cores: ${f.cores ? `stack ${[...new Set(Object.values(f.cores.stack))].join('/')}, k6 ${f.cores.k6 ?? 'n/a'}, harness ${f.cores.harness}` : 'n/a'}; ` +
      `the load generator used ${f.generatorCoreShare === undefined ? 'n/a' : `${Math.round(100 * f.generatorCoreShare)} %`} of a core`,
    f.cpu
      ? `CPU: ${f.cpu.perDisplayHour} CPU seconds per display-hour (the stack, k6 and harness excluded: ${f.cpu.cpuS} s ` +
        `over ${f.cpu.windowS} s, ${Math.round(100 * f.cpu.coreShare)} % of a core); per process: ` +
        Object.entries(f.cpu.perProcess)
          .map(([k, v]) => `${k} ${v.perDisplayHour}`)
          .join(', ')
      : 'CPU: n/a',
    `memory per display at the gateway (after a full collection, held − before): ${f.gatewayHeld ? `${f.gatewayHeld.rssKiB} KiB resident, ${f.gatewayHeld.liveKiB} KiB live (${f.gatewayHeld.sockets} sockets held)` : 'n/a'}`,
    `peak resident growth per display over the run (garbage, caches and heap headroom included): ${pair(f.kibPerScreen, ' KiB')}; CPU per k6 request: ${pair(f.cpuMsPerRequest, ' ms')}`,
    `playlist edit to every display: p95 ${ms(f.edit?.p95Ms)}, all ${ms(f.edit?.allMs)} (${f.edit?.shown ?? 'n/a'}/${f.screens}); ` +
      `takeover: p95 ${ms(f.takeover?.p95Ms)}, all ${ms(f.takeover?.allMs)} (${f.takeover?.shown ?? 'n/a'}/${f.screens})`,
    f.storm
      ? `storm (back within ${f.storm.spreadS} s): ${f.storm.playing}/${f.screens} playing, all after ` +
        `${f.storm.allS === null ? 'never' : `${f.storm.allS} s`}, p95 ${f.storm.p95FromCutMs !== undefined ? `from the cut ${ms(f.storm.p95FromCutMs)}, ` : ''}from each display's return ${ms(f.storm.p95FromBootMs)}; ` +
        `refused calls (tried again): ${list(f.storm.refusals)}`
      : 'storm: not run (STORM_SPREAD_S=0)',
  ];
  lines.push(
    `goals: ${Object.entries(f.goals ?? {})
      .map(([k, v]) => `${k} ${v === null ? 'n/a' : v ? 'yes' : 'NO'}`)
      .join(', ')}`,
  );
  process.stdout.write(`\n[load] ===== summary =====\n${lines.map((l) => `[load] ${l}`).join('\n')}\n`);
  process.stdout.write(`[load] summary-json ${JSON.stringify(f)}\n`);
}

/** Seconds of a k6 duration ('45s', '2m', '1h'), clamped like the scenario (load/screens.js at most 180 s,
 * load/lib/screens-socket.js 900 s). */
function runSeconds(duration, over) {
  const m = /^(\d+)(s|m|h)$/.exec(duration);
  return m ? Math.min(Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2]], over === 'ws' ? 900 : 180) : 45;
}

/**
 * The stack's processes by name (the stack's children, the load's FerretDB, MinIO and maildev), each a process group
 * read from /proc: sample() their CPU ticks and resident pages now; watchPeak()/stopPeak() the highest resident size
 * of each, sampled every 5 s (reading /proc costs the stack nothing, unlike a scrape of its /metrics); cores() where
 * each may run.
 */
function watchStack() {
  const groups = Object.fromEntries(stack.processes.map((p) => [p.name, p.pid]));
  if (database?.pid) groups.ferretdb = database.pid;
  for (const [name, pid] of Object.entries(sideServers?.pids ?? {})) groups[name] = pid;
  const sampler = stackSampler(groups);
  let timer = null;
  const peak = {};
  /** the stack's total CPU ticks every 5 s (cpuByPhase: the boot, the quiet fleet, the changes, the storm) */
  const timeline = [];
  const track = () => {
    let ticks = 0;
    for (const [name, v] of Object.entries(sampler.sample())) {
      peak[name] = Math.max(peak[name] ?? 0, v.rssPages);
      ticks += v.ticks;
    }
    timeline.push({ at: Date.now(), ticks });
  };
  return {
    timeline,
    sample: () => sampler.sample(),
    watchPeak() {
      track();
      timer = setInterval(track, 5000);
    },
    stopPeak() {
      clearInterval(timer);
      track();
      return peak;
    },
    cores: () => ({
      stack: Object.fromEntries(Object.entries(groups).map(([name, pid]) => [name, coresOf(pid)])),
      harness: coresOf(process.pid),
    }),
  };
}

// npm run load [-- <scenario>]: runs a k6 scenario of load/ (default smoke) against the app. Without BASE_URL it
// starts the whole stack quietly on the test profile (gateway on 18090) and stops it afterwards; with BASE_URL it
// aims there instead (loopback only). Exits with k6's code, so a broken threshold fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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
        ? { RATE_LIMIT_API_MAX: '1000000', PAIRING_RATE_MAX: '1000000', PAIR_ATTEMPT_RATE_MAX: '1000000' }
        : {};
    stack = await startStack({ profile: 'test', port: 18090, quiet: true, env });
    baseUrl = `http://127.0.0.1:18090`;
  }
  if (scenario === 'screens') {
    // paired displays through the real API before k6 starts (load/lib/pair-screens.mjs)
    const { pairScreens } = await import('../load/lib/pair-screens.mjs');
    const count = Math.min(Number(process.env.SCREENS || 100), 20_000);
    const out = join(root, '.data', 'test', 'load-screens.json');
    say(`pairing ${count} screens ...`);
    const paired = await pairScreens({
      base: baseUrl,
      mailUrl: stack?.mailUrl ?? process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
      count,
      out,
      corpus: process.env.PAGECAST_CORPUS_PDF ?? join(corpusDir(), 'pdf'),
    });
    say(`${paired} screens paired`);
    process.env.SCREENS_FILE = out;
  }
  say(`k6 run load/${scenario}.js against ${baseUrl}`);
  // screens: the gateway's and the screens service's memory before and while the displays are connected
  const memory = scenario === 'screens' && stack ? watchMemory(stack) : null;
  // screens: a takeover on every paired screen in the middle of the run, timed until every display shows it
  let probe = null;
  if (scenario === 'screens') {
    const { readFileSync } = await import('node:fs');
    const { takeoverProbe } = await import('../load/lib/takeover-probe.mjs');
    probe = takeoverProbe({
      base: baseUrl,
      setup: JSON.parse(readFileSync(process.env.SCREENS_FILE, 'utf8')),
      atMs: (runSeconds(process.env.DURATION || '45s') * 1000) / 2,
      say,
    });
  }
  const code = await new Promise((resolve) => {
    k6 = spawn(k6Bin, ['run', '--no-usage-report', script], {
      cwd: root,
      env: { ...process.env, BASE_URL: baseUrl, K6_NO_USAGE_REPORT: 'true' },
      stdio: 'inherit',
    });
    k6.on('close', (c) => resolve(c ?? 1));
  });
  if (memory) memory.report(Number(process.env.SCREENS || 100));
  let takeoverShown = true;
  if (probe) {
    takeoverShown = await probe.done;
    await probe.end();
  }
  say(code === 0 ? 'passed' : `k6 exited ${code} (a check or threshold failed)`);
  if (!takeoverShown) say('the takeover did not reach every display');
  await finish(code || (takeoverShown ? 0 : 1));
} catch (e) {
  console.error(`[load] ${e.stack || e.message}`);
  await finish(1);
}

/** Seconds of a k6 duration ('45s', '2m', '1h'), clamped like load/screens.js (at most 180 s). */
function runSeconds(duration) {
  const m = /^(\d+)(s|m|h)$/.exec(duration);
  return m ? Math.min(Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2]], 180) : 45;
}

/** Samples each process's resident memory (its /metrics) every 2 s; report() prints the rise per connected screen. */
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
  void sample();
  const timer = setInterval(sample, 2000);
  return {
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

// npm run load [-- <scenario>]: runs a k6 scenario of load/ (default smoke) against the app. Without BASE_URL it
// starts the whole stack quietly on the test profile (gateway on 18090) and stops it afterwards; with BASE_URL it
// aims there instead (loopback only). Exits with k6's code, so a broken threshold fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/infra.mjs';
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
      corpus: process.env.PAGECAST_CORPUS_PDF ?? '/work/shared/corpus/pdf',
    });
    say(`${paired} screens paired`);
    process.env.SCREENS_FILE = out;
  }
  say(`k6 run load/${scenario}.js against ${baseUrl}`);
  const code = await new Promise((resolve) => {
    k6 = spawn(k6Bin, ['run', '--no-usage-report', script], {
      cwd: root,
      env: { ...process.env, BASE_URL: baseUrl, K6_NO_USAGE_REPORT: 'true' },
      stdio: 'inherit',
    });
    k6.on('close', (c) => resolve(c ?? 1));
  });
  say(code === 0 ? 'passed' : `k6 exited ${code} (a check or threshold failed)`);
  await finish(code);
} catch (e) {
  console.error(`[load] ${e.stack || e.message}`);
  await finish(1);
}

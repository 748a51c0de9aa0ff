// npm run bench -- replicas: sign-ins per second and page images per second through nginx, with one gateway and one
// of each service (N = 1), then with two of each (N = 2), in the same run; both through the same nginx configuration
// (scripts/lib/nginx.mjs), so the only difference is the replica count. wrk is the client (scripts/lib/wrk.mjs).
// Each N gets its own stack on a port of its own, started and stopped here; the stack bench.mjs started is idle.
// Figures only: it never fails on time. BENCH_REPLICAS_SECONDS (default 5) and BENCH_REPLICAS_ROUNDS (default 3).
import { randomBytes } from 'node:crypto';
import { registerVerified } from '../../services/account/bench/account-process.mjs';
import { upload } from '../../mf-player/bench/edit-latency.bench.mjs';
import { freePort } from './net.mjs';
import { startStack } from './stack.mjs';
import { luaString, runWrk } from './wrk.mjs';

const MEMBERS = 32;
const PASSWORD = 'bench password 123';

/** Rounds of one measure as one row: all requests over all the time, the median round's percentiles. */
function combine(runs) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    concurrency: runs[0].concurrency,
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    p99: median(runs.map((r) => r.p99)),
    rps: runs.reduce((n, r) => n + r.rps, 0) / runs.length,
  };
}

async function measureOne(n, { say, seconds, rounds }) {
  const port = await freePort();
  say(`N = ${n}: starting ${n} gateway(s) and ${n} of each service behind nginx on ${port} ...`);
  const stack = await startStack({
    profile: 'test',
    port,
    replicas: n,
    nginx: true,
    quiet: true,
    build: false,
    // the per-address limits would turn the load (all from 127.0.0.1, as nginx states it) into 429s
    env: {
      RATE_LIMIT_API_MAX: '10000000',
      RATE_LIMIT_AUTH_MAX: '10000000',
      LOGIN_FAILURES_PER_ADDRESS: '10000000',
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    const post = (path, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const tag = randomBytes(4).toString('hex');
    const emails = Array.from({ length: MEMBERS }, (_, i) => `bench-rep-${tag}-${i}@example.com`);
    await registerVerified({
      env: stack.env,
      post,
      emails,
      password: PASSWORD,
      mailPrefix: `bench-rep-${tag}-`,
      batch: 8,
      timeoutMs: 60_000,
    });
    // a session and a converted page image, read as a signed-in member's browser would
    const login = await post('/api/auth/local-login', { email: emails[0], password: PASSWORD });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('pc_session='))
      ?.split(';')[0];
    if (!cookie) throw new Error(`login answered ${login.status}`);
    const call = async (method, path, body) => {
      const r = await fetch(`${base}${path}`, { method, headers: { cookie }, body });
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const fileId = await upload(call, 'tracemonkey.pdf', 'Bench replicas');
    const pages = await call('GET', `/api/files/${fileId}/pages`);
    const imageUrl = `${base}${pages[0].imagePath}`;

    const loginScript = `
sent = 0
local bodies = { ${emails.map((email) => luaString(JSON.stringify({ email, password: PASSWORD }))).join(', ')} }
function request()
  sent = sent + 1
  return wrk.format('POST', '/api/auth/local-login', { ['content-type'] = 'application/json' }, bodies[sent % #bodies + 1])
end`;
    const signIns = () =>
      runWrk(`${base}/api/auth/local-login`, { connections: MEMBERS, seconds, threads: 1, script: loginScript });
    const images = () => runWrk(imageUrl, { connections: 50, seconds, threads: 2, headers: { cookie } });
    // warm-up, not counted
    await signIns();
    await images();
    const logins = [];
    const reads = [];
    for (let round = 0; round < rounds; round++) {
      logins.push(await signIns());
      await new Promise((r) => setTimeout(r, 1000)); // the sign-ins still in flight end
      reads.push(await images());
      const [l, i] = [logins.at(-1), reads.at(-1)];
      say(
        `N = ${n}, round ${round + 1}: sign-ins ${l.rps.toFixed(1)}/s p50 ${l.p50} ms; images ${i.rps.toFixed(0)}/s ` +
          `p50 ${i.p50} ms${l.errors || i.errors ? ` (socket errors: ${l.errors ?? 0}; ${i.errors ?? 0})` : ''}`,
      );
    }
    return { logins: combine(logins), images: combine(reads) };
  } finally {
    await stack.stop();
  }
}

export async function benchReplicas({
  say = (m) => process.stdout.write(`  ${m}\n`),
  seconds = Number(process.env.BENCH_REPLICAS_SECONDS ?? 5),
  rounds = Number(process.env.BENCH_REPLICAS_ROUNDS ?? 3),
} = {}) {
  const one = await measureOne(1, { say, seconds, rounds });
  const two = await measureOne(2, { say, seconds, rounds });
  const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  return {
    rows: [
      { label: `N = 1: POST /api/auth/local-login, ${MEMBERS} members (wrk)`, ...one.logins },
      { label: `N = 2: POST /api/auth/local-login, ${MEMBERS} members (wrk)`, ...two.logins },
      { label: 'N = 1: GET /media/<page image>, signed in (wrk)', ...one.images },
      { label: 'N = 2: GET /media/<page image>, signed in (wrk)', ...two.images },
    ],
    notes: [
      `sign-ins per second, N = 2 / N = 1: ${fmt(two.logins.rps / one.logins.rps)}x ` +
        `(${fmt(one.logins.rps)} -> ${fmt(two.logins.rps)})`,
      `page images per second, N = 2 / N = 1: ${fmt(two.images.rps / one.images.rps)}x ` +
        `(${fmt(one.images.rps)} -> ${fmt(two.images.rps)})`,
    ],
  };
}

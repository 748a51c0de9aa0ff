// A page image through the gateway next to nginx serving the same bytes: wrk, the same connections and
// duration, one after the other in the same run. The image is a real converted page (the largest page of the
// corpus's tracemonkey.pdf), read by a verified member with the session cookie a browser would send; nginx (Debian's,
// one worker, as the front-end images run it) serves a copy of those bytes from a temporary folder. Goal: the gateway
// at least half of nginx's requests per second. Figures only; it never fails on time.
//
//   benchImages({ log, baseUrl, mailUrl, connections, seconds, rounds })  → rows for scripts/bench.mjs
// BENCH_IMAGES_SECONDS (default 5) and BENCH_IMAGES_ROUNDS (default 3): each round measures nginx, then the gateway;
// the rows give the mean req/s and the median round's percentiles, and each round's ratio is printed.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { upload, verifiedSession } from '../../mf-player/bench/edit-latency.bench.mjs';
import { freePort } from '../../scripts/lib/net.mjs';
import { runWrk } from '../../scripts/lib/wrk.mjs';

/** wrk on two threads: requests, req/s, latency percentiles (ms), and socket errors as text. */
const wrk = (url, opts) => runWrk(url, { threads: 2, ...opts });

/**
 * Debian's nginx, one worker, serving `bytes` at /media/<key> (a key may hold a folder: `video/<id>`) on a free
 * port, with `type` as its Content-Type; stop() ends it and its folder.
 */
export async function startNginx(key, bytes, { type = 'image/webp' } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'pagecast-bench-nginx-'));
  chmodSync(work, 0o755); // workers run as an unprivileged user when the master is root
  mkdirSync(join(work, 'html', 'media'), { recursive: true });
  chmodSync(join(work, 'html'), 0o755);
  chmodSync(join(work, 'html', 'media'), 0o755);
  const folder = dirname(join(work, 'html', 'media', key));
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o755);
  writeFileSync(join(work, 'html', 'media', key), bytes, { mode: 0o644 });
  const port = await freePort();
  writeFileSync(
    join(work, 'nginx.conf'),
    `worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { }
  default_type ${type};
  client_body_temp_path ${work}/tmp; proxy_temp_path ${work}/tmp; fastcgi_temp_path ${work}/tmp;
  uwsgi_temp_path ${work}/tmp; scgi_temp_path ${work}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${work}/html;
    location /media/ { add_header Cache-Control "private, max-age=31536000, immutable"; }
  }
}
`,
  );
  const log = join(work, 'nginx.out');
  const out = openSync(log, 'a');
  const nginx = spawn('/usr/sbin/nginx', ['-p', work, '-c', join(work, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const url = `http://127.0.0.1:${port}/media/${key}`;
  for (let i = 0; ; i++) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${readFileSync(log, 'utf8')}`);
    try {
      const r = await fetch(url);
      const got = Buffer.from(await r.arrayBuffer());
      if (r.ok && got.equals(bytes)) break;
    } catch {
      if (i > 100) throw new Error(`nginx did not answer: ${readFileSync(log, 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  };
  return { url, stop };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Rounds of one side as one row: all requests over all the time, the median round's p50 and p99. */
function combine(runs) {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  return {
    requests,
    concurrency: runs[0].concurrency,
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    p99: median(runs.map((r) => r.p99)),
    rps: runs.reduce((n, r) => n + r.rps, 0) / runs.length,
  };
}

export async function benchImages({
  log = () => {},
  baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
  mailUrl = process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
  connections = 50,
  seconds = Number(process.env.BENCH_IMAGES_SECONDS ?? 5),
  rounds = Number(process.env.BENCH_IMAGES_ROUNDS ?? 3),
} = {}) {
  const { cookie, call } = await verifiedSession(baseUrl, mailUrl);
  const fileId = await upload(call, 'tracemonkey.pdf', 'Bench images');
  const pages = await call('GET', `/api/files/${fileId}/pages`);
  // the largest page image: the dearest to serve
  let image;
  for (const p of pages) {
    const r = await fetch(`${baseUrl}${p.imagePath}`, { headers: { cookie } });
    if (r.status !== 200) throw new Error(`GET ${p.imagePath} answered ${r.status}`);
    const bytes = Buffer.from(await r.arrayBuffer());
    if (!image || bytes.length > image.bytes.length) image = { path: p.imagePath, bytes };
  }
  if (!image) throw new Error('no page image');
  const key = image.path.slice('/media/'.length);
  log(
    `image: ${image.path} (${(image.bytes.length / 1024).toFixed(0)} KB), ${connections} connections, ` +
      `${rounds} rounds of ${seconds} s, each nginx then the gateway`,
  );
  const nginx = await startNginx(key, image.bytes);
  try {
    const opts = { connections, seconds };
    const gatewayUrl = `${baseUrl}${image.path}`;
    const gatewayOpts = { ...opts, headers: { cookie } };
    // warm-up, not counted
    await wrk(nginx.url, { ...opts, seconds: 2 });
    await wrk(gatewayUrl, { ...gatewayOpts, seconds: 2 });
    // Alternating rounds, so that load from elsewhere on the machine weighs on both alike.
    const baseline = [];
    const gateway = [];
    for (let round = 0; round < rounds; round++) {
      baseline.push(await wrk(nginx.url, opts));
      gateway.push(await wrk(gatewayUrl, gatewayOpts));
      const [n, g] = [baseline.at(-1), gateway.at(-1)];
      log(
        `round ${round + 1}: nginx ${n.rps.toFixed(0)} req/s p50 ${n.p50} ms; gateway ${g.rps.toFixed(0)} req/s ` +
          `p50 ${g.p50} ms; ${(g.rps / n.rps).toFixed(2)}x` +
          (g.errors || n.errors ? ` (socket errors: gateway ${g.errors ?? 0}, nginx ${n.errors ?? 0})` : ''),
      );
    }
    const size = `${(image.bytes.length / 1024).toFixed(0)} KB`;
    return [
      { label: `nginx, 1 worker, the same ${size} file (wrk)`, ...combine(baseline) },
      { label: 'gateway GET /media/<key>, signed-in member (wrk)', ...combine(gateway) },
    ];
  } finally {
    await nginx.stop();
  }
}

// How long the video cache's fill holds the gateway's event loop while it copies and checks a large video: the
// longest stall (perf_hooks.monitorEventLoopDelay, 1 ms resolution) while one `VIDEO_STALL_MB` copy is made, with
// its sha256 check (an ETag that is the bytes' sha256) and without it (any other ETag), in alternating rounds; and,
// for scale, the stall of the same bytes hashed in one call (what a check after the copy, over the file, would cost).
// The object store is a child process on the loopback address (so its work is not this loop's), serving ranged
// GETs of random bytes; the cache reads it as the gateway does (storage-reads.ts) and writes to a temporary folder.
//
//   npx tsx gateway/bench/video-cache-stall.mjs      VIDEO_STALL_MB (default 100), VIDEO_STALL_ROUNDS (default 3)
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createStorageReads } from '../src/storage-reads.ts';
import { createVideoCache } from '../src/video-cache.ts';

const MB = Number(process.env.VIDEO_STALL_MB ?? 100);
const ROUNDS = Number(process.env.VIDEO_STALL_ROUNDS ?? 3);

if (process.argv[2] === 'storage') {
  // the object store: the same bytes for every key, whole or in one range
  const http = await import('node:http');
  const body = randomBytes(MB * 1_000_000);
  const server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const [start, end] = m ? [Number(m[1]), Math.min(Number(m[2]), body.length - 1)] : [0, body.length - 1];
    res.writeHead(m ? 206 : 200, { 'content-length': end - start + 1 });
    res.end(body.subarray(start, end + 1));
  });
  server.listen(0, '127.0.0.1', () => {
    const sha = createHash('sha256').update(body).digest('hex');
    process.send?.({ port: server.address().port, sha, size: body.length });
  });
  process.on('disconnect', () => process.exit(0));
} else {
  const storage = fork(new URL(import.meta.url).pathname, ['storage'], { execArgv: process.execArgv });
  const { port, sha, size } = await new Promise((resolve) => storage.once('message', resolve));
  const quiet = { warn() {}, info() {}, error() {}, debug() {} };
  const reads = createStorageReads({ idleMs: 30_000, timeoutMs: 30_000 });
  const rows = [];
  // round 0 warms up (the first fill compiles and opens what every later one reuses) and is not printed
  for (let round = 0; round <= ROUNDS; round++)
    for (const checked of [true, false]) {
      const dir = await mkdtemp(path.join(tmpdir(), 'pagecast-video-stall-'));
      const cache = createVideoCache({ dir, maxBytes: 2 * size, reads, logger: quiet });
      await cache.ready;
      const etag = checked ? `"${sha}"` : `"not-a-sha-${round}"`;
      const url = new URL(`http://127.0.0.1:${port}/videos/v${round}?sig=x`);
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const t0 = performance.now();
      cache.lookup({ fileId: `v${round}`, preview: false, etag, size }, url);
      await cache.settled();
      const ms = performance.now() - t0;
      delay.disable();
      if (cache.stats.filled !== 1) throw new Error(`the copy was not made (${JSON.stringify(cache.stats)})`);
      if (round > 0) rows.push({ label: checked ? 'sha256 checked' : 'not checked', delay, ms });
      if (checked && round > 0) {
        const bytes = await readFile(path.join(dir, (await readdir(dir))[0]));
        const whole = monitorEventLoopDelay({ resolution: 1 });
        whole.enable();
        const t1 = performance.now();
        await new Promise((r) => setTimeout(r, 20));
        createHash('sha256').update(bytes).digest('hex');
        await new Promise((r) => setTimeout(r, 20));
        whole.disable();
        rows.push({ label: 'one-call hash', delay: whole, ms: performance.now() - t1 });
      }
      await rm(dir, { recursive: true, force: true });
    }
  reads.close();
  storage.disconnect();
  for (const r of rows)
    console.log(
      `${r.label.padEnd(15)} longest stall ${(r.delay.max / 1e6).toFixed(1)} ms, p99 ${(r.delay.percentile(99) / 1e6).toFixed(1)} ms, took ${r.ms.toFixed(0)} ms`,
    );
}

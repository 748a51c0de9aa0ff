// From the end of an upload to the first play of a 100 MB H.264/AAC MP4 (moov at the end, as cameras write it), which
// needs no transcode: the file is made here with ffmpeg, sent through the real path of a running stack (the
// resumable upload through the gateway: POST /api/files/uploads, then 24 MiB PATCH calls, as the upload dialog does)
// by a verified member, and timed from the moment the last byte left to the moment the video answers 206 to a Range
// request (GET /media/video/<id>: converted and playable). Goal: under 3 s. Figures only; it never fails on time.
//
// The figure's parts from the client: the last PATCH's answer (the service takes the upload from its own copy of
// the chunks, written as they passed on to S3 (read back whole from S3 only when a chunk went to another instance),
// decides its type from the bytes, probes it while the storage copies it within the bucket to the original's key,
// and records the file), then the job (the queue, the probe, the faststart remux, the stored file's probe beside the poster, the
// page, the hash, the video's storing, the record). Then, on the same file and the same servers, each part alone:
// what the service does, timed apart (the conversion's own timings, conversion/convert-video.ts: after the remux,
// the stored file's probe and poster, its hash and its storing run beside each other, each timed from the remux's
// end).
//
//   benchVideoFirstPlay({ log, baseUrl, mailUrl, megabytes, runs })
// BENCH_FIRST_PLAY_MB (default 100), BENCH_FIRST_PLAY_RUNS (default 3).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createS3 } from '@pagecast/service-kit';
import { verifiedSession } from '../../../mf-player/bench/edit-latency.bench.mjs';
import { convertVideo, defaultLimits, probeVideo, RenderPool, sniffFile } from '../src/conversion/index.ts';
import { createStorage, createWriteClient } from '../src/data/storage.ts';
import { makeSampleVideo, tusUpload } from './sample-video.mjs';

const GOAL_MS = 3000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls until the video answers 206 to a Range request; when it first did (performance.now()). */
async function firstPlayable({ baseUrl, cookie, call, id }) {
  let readyAt;
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    if (!readyAt) {
      const f = await call('GET', `/api/files/${id}`);
      if (f.status === 'disabled') throw new Error(`the video was refused: ${f.disabledReason}`);
      if (f.status !== 'processing') readyAt = performance.now();
    }
    if (readyAt) {
      const r = await fetch(`${baseUrl}/media/video/${id}`, { headers: { cookie, Range: 'bytes=0-1' } });
      await r.arrayBuffer();
      if (r.status === 206) return { readyAt, playableAt: performance.now() };
    }
    await sleep(25);
  }
  throw new Error(`video ${id} not playable after 5 minutes`);
}

/** The service's steps on the same file, each alone: S3 read back and copy, type check, probe, conversion parts. */
async function parts(path, log) {
  const cfg = {
    endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000',
    accessKey: process.env.S3_ACCESS_KEY ?? '',
    secretKey: process.env.S3_SECRET_KEY ?? '',
  };
  const s3 = createS3({ ...cfg, bucket: `pagecast-bench-${randomUUID().slice(0, 8)}` });
  await s3.ensureBucket();
  const writer = createWriteClient(cfg);
  const storage = createStorage(s3, writer);
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-bench-parts-'));
  const pool = new RenderPool({ size: 1 });
  const keys = ['upload', 'original', 'video'];
  try {
    const out = {};
    const time = async (name, fn) => {
      const t0 = performance.now();
      const r = await fn();
      out[name] = performance.now() - t0;
      return r;
    };
    await storage.putFile('upload', path, 'application/octet-stream');
    const copy = join(dir, 'read-back.mp4');
    await time('readBackMs', () => storage.downloadTo('upload', copy));
    const sniffed = await time('typeCheckMs', () => sniffFile(copy));
    const probe = await time('uploadProbeMs', () =>
      probeVideo(copy, sniffed.video, { limits: defaultLimits, isolateNetwork: 'auto', cwd: dir }),
    );
    await time('copyMs', () => storage.copy('upload', 'original', 'video/mp4'));
    // as the finish does them: the copy to the original from the moment the type is known, beside the probe
    await time('probeAndCopyMs', () =>
      Promise.all([
        probeVideo(copy, sniffed.video, { limits: defaultLimits, isolateNetwork: 'auto', cwd: dir }),
        storage.copy('upload', 'original', 'video/mp4'),
      ]),
    );
    const t0 = performance.now();
    const { timings, video } = await convertVideo(
      copy,
      sniffed.video,
      {
        pool,
        tmpDir: dir,
        // as the worker does: from the upload's probe, not probing again
        source: probe,
        onVideo: (v) => storage.putFile('video', v.path, v.mimeType),
      },
      async () => {},
    );
    out.conversionMs = performance.now() - t0;
    if (video.processing !== 'kept') throw new Error(`the sample was transcoded (${video.reasons.join(', ')})`);
    Object.assign(out, timings);
    log(
      `parts alone: ${Object.entries(out)
        .map(([k, v]) => `${k.replace(/Ms$/, '')} ${Math.round(v)} ms`)
        .join(', ')}`,
    );
    return out;
  } finally {
    await pool.close();
    await storage.remove(keys).catch(() => {});
    writer.destroy();
    await s3.client.removeBucket(s3.bucket).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchVideoFirstPlay({
  log = () => {},
  baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
  mailUrl = process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
  megabytes = Number(process.env.BENCH_FIRST_PLAY_MB ?? 100),
  runs = Number(process.env.BENCH_FIRST_PLAY_RUNS ?? 3),
} = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-bench-first-play-'));
  try {
    const source = join(dir, 'source.mp4');
    const made = await makeSampleVideo(source, { megabytes });
    log(`source: ${(made.bytes / 1e6).toFixed(1)} MB, ${made.seconds} s 1080p30 H.264/AAC MP4, moov at the end`);
    const { cookie, call } = await verifiedSession(baseUrl, mailUrl);
    const results = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const up = await tusUpload({ baseUrl, cookie, path: source, title: `Bench first play ${i + 1}` });
      const sent = up.lastByteAt - t0;
      const { readyAt, playableAt } = await firstPlayable({ baseUrl, cookie, call, id: up.id });
      const r = {
        uploadMs: sent,
        finishMs: up.answeredAt - up.lastByteAt,
        convertMs: readyAt - up.answeredAt,
        rangeMs: playableAt - readyAt,
        totalMs: playableAt - up.lastByteAt,
      };
      results.push(r);
      log(
        `run ${i + 1}: upload ${(sent / 1000).toFixed(1)} s; then last PATCH answered +${Math.round(r.finishMs)} ms, ` +
          `ready +${Math.round(r.convertMs)} ms, 206 +${Math.round(r.rangeMs)} ms: ${Math.round(r.totalMs)} ms`,
      );
      await call('DELETE', `/api/files/${up.id}`).catch(() => {});
    }
    const alone = await parts(source, log);
    const m = (k) => Math.round(median(results.map((r) => r[k])));
    const row = (step, ms, what) => ({ step, ms: Math.round(ms), what });
    return {
      rows: [
        row('last byte → file created (PATCH answered)', m('finishMs'), 'median, through the gateway'),
        row(
          '  alone: read the upload back from S3',
          alone.readBackMs,
          "only when a chunk went to another instance (else the instance's copy)",
        ),
        row('  alone: type check (bytes sniffed)', alone.typeCheckMs, 'sniffFile'),
        row('  alone: probe (sandboxed ffprobe)', alone.uploadProbeMs, 'probeVideo'),
        row('  alone: storage copy to the original', alone.copyMs, 'S3 copy within the bucket'),
        row('  alone: probe and copy beside each other', alone.probeAndCopyMs, 'as the finish runs them'),
        row('file created → ready', m('convertMs'), 'median: queue, conversion, storing, record'),
        row('  alone: the conversion, all of it', alone.conversionMs, 'convertVideo, storing included'),
        row("    the upload's probe checked against the limits", alone.probeMs, 'not probed again'),
        row('    faststart remux (-c copy)', alone.remuxMs, ''),
        row('    then, beside each other: probe again + poster frame', alone.posterMs, 'from the remux end'),
        row('    sha256 of the video', alone.hashMs, 'from the remux end'),
        row('    store the video (S3 putFile)', alone.storeMs, 'from the remux end'),
        row('ready → 206 to a Range request', m('rangeMs'), 'median'),
        row('total: last byte → playable', m('totalMs'), `goal under ${GOAL_MS} ms`),
      ],
      totalMs: m('totalMs'),
      goalMs: GOAL_MS,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Video transcoding: our pipeline (ffprobe, the transcode and the poster, each in the sandbox: no network, prlimit,
// its own process group; the stored file probed again) next to the `ffmpeg` command alone with the same H.264
// settings on the same file, measured in one run, one after the other. Goal: ours at least 0.95x ffmpeg's speed.
// The source is made here with ffmpeg (a moving test pattern and a tone, MPEG-4 part 2 in AVI), so no file to keep.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertVideo, RenderPool, transcodeArgs } from '../src/conversion/index.ts';

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * `size` and `seconds` of the source; `runs` of each pipeline, alternated so load on the machine hits both alike.
 * Returns a row per pipeline: median seconds, frames per second of source, and ours as a ratio of ffmpeg's speed.
 */
export async function benchMedia({ log = console.log, size = '1280x720', seconds = 6, rate = 30, runs = 3 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-bench-media-'));
  const pool = new RenderPool({ size: 1 });
  try {
    const source = join(dir, 'source.avi');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:v',
      'mpeg4',
      '-q:v',
      '4',
      '-c:a',
      'pcm_s16le',
      '-y',
      source,
    ]);
    log(
      `source: ${size}, ${seconds} s at ${rate} fps, MPEG-4 in AVI, ${((await stat(source)).size / 1e6).toFixed(1)} MB`,
    );
    const alone = [];
    const ours = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      await run('ffmpeg', transcodeArgs('avi', source, join(dir, 'alone.mp4')));
      alone.push((performance.now() - t) / 1000);
      t = performance.now();
      await convertVideo(source, 'avi', { pool, tmpDir: dir, onVideo: async () => {} }, () => {});
      ours.push((performance.now() - t) / 1000);
      log(`run ${i + 1}: ffmpeg alone ${alone[i].toFixed(2)} s, pagecast ${ours[i].toFixed(2)} s`);
    }
    const frames = seconds * rate;
    const a = median(alone);
    const o = median(ours);
    return [
      { pipeline: 'ffmpeg alone (same H.264 settings)', seconds: +a.toFixed(2), fps: +(frames / a).toFixed(1) },
      {
        pipeline: 'pagecast (probe, transcode, probe, poster; sandboxed)',
        seconds: +o.toFixed(2),
        fps: +(frames / o).toFixed(1),
        speedVsFfmpeg: +(a / o).toFixed(3),
      },
    ];
  } finally {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// Video transcoding: our pipeline on an uploaded file (the upload's checks: the type from the bytes and ffprobe; then
// the worker's conversion: the transcode writing its poster frame too, the output's MP4 header read, the page drawn
// and the file hashed; every ffmpeg and ffprobe in the sandbox: no network, prlimit, its own process group) next to
// the `ffmpeg` command alone with the same H.264 settings on the same file. Goal: ours at least 0.95x ffmpeg's speed.
// Storing the results (MinIO, the database) is not counted, as the command's output is not stored.
//
// The machine is shared, and its load swings within seconds: two medians taken apart can differ by more than the
// overhead being measured. So the runs are paired, each pair run back to back (ffmpeg first in odd pairs, ours first
// in even ones, so neither always runs in the other's wake), after one pair not counted, and the figure is the median
// of the pairs' ratios (ffmpeg's time / ours), with their spread and the load average before and after. Each pair
// also gives ours' transcode step alone over ffmpeg alone (what the sandbox and the progress reading cost: near 1)
// and the fixed cost around it (the upload's probe, the header read, the page). And the work each did, which the load hardly changes: the CPU
// time of the processes it ran (the kernel's account of waited-for children, /proc/self/stat) plus, for ours, this
// process's own (sharp drawing the poster); its ratio is the overhead of the pipeline with the waiting taken out.
// The source is made here with ffmpeg (a moving test pattern and a tone, MPEG-4 part 2 in AVI), so no file to keep.
//   benchMedia({ log, size, seconds, rate, runs }); BENCH_MEDIA_SIZE (default 1280x720), BENCH_MEDIA_SECONDS (default 6),
//   BENCH_MEDIA_RUNS (default 7).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  convertDocument,
  defaultLimits,
  probeVideo,
  RenderPool,
  sniffFile,
  transcodeArgs,
} from '../src/conversion/index.ts';

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** CPU seconds of this process's finished children (and theirs, once waited for): cutime + cstime. */
async function childrenCpu() {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14; in clock ticks (100 a second)
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/**
 * `size` and `seconds` of the source; `runs` pairs (plus one not counted). Returns a row per pipeline (median
 * seconds, frames per second of source) and, on ours, the median of the pairs' speed ratios and their spread.
 */
export async function benchMedia({
  log = console.log,
  size = process.env.BENCH_MEDIA_SIZE ?? '1280x720',
  seconds = Number(process.env.BENCH_MEDIA_SECONDS ?? 6),
  rate = 30,
  runs = Number(process.env.BENCH_MEDIA_RUNS ?? 7),
} = {}) {
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
    const alone = async () => {
      const [t, c] = [performance.now(), await childrenCpu()];
      await run('ffmpeg', transcodeArgs('avi', source, join(dir, 'alone.mp4')));
      return { s: (performance.now() - t) / 1000, cpu: (await childrenCpu()) - c };
    };
    // Ours as the service runs it on an uploaded file: the upload's checks (the type from the bytes, ffprobe in the
    // sandbox: upload-file.ts), then the worker's conversion given that probe (convert-job.ts: convertDocument, which
    // sniffs again and does not probe again) until the playable file and its page exist. Storing them (MinIO, the
    // database) is left out on purpose: the ffmpeg command's output is not stored either.
    const ours = async () => {
      const [t, c, own] = [performance.now(), await childrenCpu(), ownCpu()];
      const sniffed = await sniffFile(source);
      const probe = await probeVideo(source, sniffed.video, {
        limits: defaultLimits,
        isolateNetwork: 'auto',
        cwd: dir,
      });
      const probed = performance.now();
      const { timings } = await convertDocument(
        { path: source },
        { pool, tmpDir: dir, videoSource: probe, onVideo: async () => {} },
        () => {},
      );
      return {
        s: (performance.now() - t) / 1000,
        probe: (probed - t) / 1000,
        transcode: timings.video.remuxMs / 1000,
        cpu: (await childrenCpu()) - c + (ownCpu() - own),
      };
    };
    const loadBefore = load();
    const pairs = [];
    for (let i = 0; i <= runs; i++) {
      let a;
      let o;
      if (i % 2 === 0) {
        a = await alone();
        o = await ours();
      } else {
        o = await ours();
        a = await alone();
      }
      // the first pair warms the caches and the sandbox's first start: not counted
      if (i === 0) continue;
      pairs.push({ alone: a.s, ours: o.s, probe: o.probe, transcode: o.transcode, aloneCpu: a.cpu, oursCpu: o.cpu });
      log(
        `pair ${i} (${i % 2 ? 'ours' : 'ffmpeg'} first): ffmpeg alone ${a.s.toFixed(2)} s (CPU ${a.cpu.toFixed(2)} s), ` +
          `pagecast ${o.s.toFixed(2)} s (CPU ${o.cpu.toFixed(2)} s; the upload's probe ${o.probe.toFixed(2)} s, ` +
          `its transcode ${o.transcode.toFixed(2)} s): ${(a.s / o.s).toFixed(3)}x`,
      );
    }
    const loadAfter = load();
    const ratios = pairs.map((p) => p.alone / p.ours);
    const cpuRatios = pairs.map((p) => p.aloneCpu / p.oursCpu);
    const frames = seconds * rate;
    const a = median(pairs.map((p) => p.alone));
    const o = median(pairs.map((p) => p.ours));
    const r3 = (n) => +n.toFixed(3);
    log(
      `load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}; median of ${pairs.length} pairs' ratios ` +
        `${median(ratios).toFixed(3)}x (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}); ` +
        `transcode step / ffmpeg alone ${median(pairs.map((p) => p.transcode / p.alone)).toFixed(3)}x; ` +
        `fixed cost around it ${median(pairs.map((p) => p.ours - p.transcode)).toFixed(2)} s (the upload's probe ` +
        `${median(pairs.map((p) => p.probe)).toFixed(2)} s); without the upload's probe (the worker's conversion alone) ` +
        `${median(pairs.map((p) => p.alone / (p.ours - p.probe))).toFixed(3)}x; CPU time: ffmpeg alone ` +
        `${median(pairs.map((p) => p.aloneCpu)).toFixed(2)} s, ours ${median(pairs.map((p) => p.oursCpu)).toFixed(2)} s, ` +
        `median ratio ${median(cpuRatios).toFixed(3)}x (${Math.min(...cpuRatios).toFixed(3)}-${Math.max(...cpuRatios).toFixed(3)})`,
    );
    return [
      {
        pipeline: 'ffmpeg alone (same H.264 settings)',
        seconds: +a.toFixed(2),
        fps: +(frames / a).toFixed(1),
        cpuSeconds: +median(pairs.map((p) => p.aloneCpu)).toFixed(2),
      },
      {
        pipeline: "pagecast (upload's sniff and probe, transcode with its poster, header read, page; sandboxed)",
        seconds: +o.toFixed(2),
        fps: +(frames / o).toFixed(1),
        cpuSeconds: +median(pairs.map((p) => p.oursCpu)).toFixed(2),
        speedVsFfmpeg: r3(median(ratios)),
        conversionVsFfmpeg: r3(median(pairs.map((p) => p.alone / (p.ours - p.probe)))),
        pairsMin: r3(Math.min(...ratios)),
        pairsMax: r3(Math.max(...ratios)),
        cpuVsFfmpeg: r3(median(cpuRatios)),
      },
    ];
  } finally {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { drawImage } from './convert-image.ts';
import { ConversionError, isConversionError } from './errors.ts';
import { type ConversionLimits, defaultEncode, defaultLimits, type EncodeSettings } from './limits.ts';
import type { RenderPool, RenderSlot } from './pool.ts';
import type { OnPage, PageSummary, RenderedPage } from './render-pdf.ts';
import { runSandboxed, type SandboxRun } from './sandbox.ts';
import { type Mp4Header, readMp4Header } from './mp4-header.ts';
import type { VideoContainer } from './sniff.ts';
import { watermarkSvg } from './watermark.ts';

/** Why a video was transcoded rather than kept: stored as codes, the member reads them in their language. */
export type TranscodeReason =
  | 'container'
  | 'video-codec'
  | 'audio-codec'
  | 'resolution'
  | 'variable-frame-rate'
  | 'pixel-format';

/** What ffprobe says of a video, after the limits were checked. */
export interface VideoProbe {
  container: VideoContainer;
  /** As shown: a phone's rotation (display matrix) applied. */
  width: number;
  height: number;
  durationMs: number;
  videoCodec: string;
  audioCodec: string | null;
  pixelFormat: string;
  /** Frames per second (the stream's base rate). */
  frameRate: number;
  /** The base rate and the average agree: a constant frame rate. */
  constantFrameRate: boolean;
}

/** The playable video the conversion made (or kept), with its poster drawn as page 1. */
export interface VideoResult {
  /** The file to store (in the job's scratch directory until cleanup). */
  path: string;
  sha256: string;
  bytes: number;
  mimeType: 'video/mp4' | 'video/webm';
  processing: 'kept' | 'transcoded';
  reasons: TranscodeReason[];
  /** The source as probed. */
  source: VideoProbe;
  /** The stored video as probed again (a transcode's: read from its own MP4 header, as ffprobe reads it). */
  output: VideoProbe;
}

/**
 * Where a video's conversion spent its time, in ms: the source's probe, the remux (kept) or the transcode, the stored
 * file's checks (a kept video's probe and poster frame, a transcode's MP4 header) with the page's drawing, the page's
 * storing (onPage); the hash and the video's storing (onVideo) run beside those checks, each given as its own length
 * from the remux's end.
 */
export interface VideoTimings {
  probeMs: number;
  remuxMs: number;
  posterMs: number;
  pageMs: number;
  hashMs: number;
  storeMs: number;
}

/** The playable file to store: where it is (in the job's scratch directory) and its type. */
export interface PlayableFile {
  path: string;
  mimeType: VideoResult['mimeType'];
}

/** A short, small, watermarked clip of the video: what the marketplace shows before a licence is bought. */
export interface PreviewClip {
  /** The clip (in the job's scratch directory until cleanup). */
  path: string;
  sha256: string;
  bytes: number;
  mimeType: 'video/mp4';
  width: number;
  height: number;
  durationMs: number;
}

/**
 * The preview clip's bounds: the first 10 s, at most 360p either way up (640 x 360 or 360 x 640), a low bitrate
 * (x264 capped at 400 kbit/s), silent: enough to judge the video, not a copy worth keeping.
 */
export const previewClipSettings = { seconds: 10, longSide: 640, shortSide: 360, maxrateKbps: 400 } as const;

/** ffmpeg's demuxer per container, always forced: no probing of the format, so no playlist or image2 demuxer. */
const DEMUXER: Record<VideoContainer, string> = {
  mp4: 'mov',
  mov: 'mov',
  webm: 'matroska',
  mkv: 'matroska',
  avi: 'avi',
};

/**
 * Options every ffmpeg and ffprobe run gets before its input: only the `file` protocol (a file naming a URL, or a
 * data reference to another file, cannot be followed), the demuxer the sniffed container names, and no stdin.
 */
function inputArgs(container: VideoContainer, path: string): string[] {
  return ['-protocol_whitelist', 'file', '-f', DEMUXER[container], '-i', `file:${path}`];
}

export interface VideoRunOptions {
  limits: ConversionLimits;
  isolateNetwork: 'auto' | 'off';
  signal?: AbortSignal;
  slot?: RenderSlot;
  cwd: string;
}

function sandbox(o: VideoRunOptions, extra: Partial<SandboxRun> = {}): SandboxRun {
  return {
    cwd: o.cwd,
    memoryMb: o.limits.maxVideoMemoryMb,
    cpuSeconds: Math.ceil(o.limits.videoTimeoutMs / 1000) + 1,
    isolateNetwork: o.isolateNetwork,
    signal: o.signal,
    slot: o.slot,
    ...extra,
  };
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number }[];
}

/**
 * ffprobe in the sandbox, with the input forced to the sniffed demuxer and the file protocol only; then the limits:
 * a size over maxVideoSide (ffmpeg itself calls a claimed 100,000 x 100,000 "invalid" and reports 0 x 0: its message
 * is read for the claimed size), a length over maxVideoSeconds, no video stream or no duration (a file cut short).
 */
export async function probeVideo(path: string, container: VideoContainer, o: VideoRunOptions): Promise<VideoProbe> {
  const args = [
    '-v',
    'error',
    ...inputArgs(container, path),
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height,pix_fmt,r_frame_rate,avg_frame_rate,duration:stream_disposition=attached_pic:stream_side_data=rotation',
    '-of',
    'json',
  ];
  const r = await runSandboxed('ffprobe', args, sandbox(o, { captureStdout: 1024 * 1024 }));
  const claimed = /Picture size (\d+)x(\d+) is invalid/.exec(r.stderr);
  if (claimed) {
    throw new ConversionError(
      'VIDEO_DIMENSIONS_TOO_LARGE',
      `The video claims ${claimed[1]} x ${claimed[2]} pixels, over ${o.limits.maxVideoSide} on a side`,
    );
  }
  if (r.how !== 'ok') throw failure('The video cannot be read', r);
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(r.stdout);
  } catch (err) {
    throw new ConversionError('FILE_CORRUPT', 'The video cannot be read (no probe result)', { cause: err });
  }
  const streams = parsed.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video) throw new ConversionError('FILE_CORRUPT', 'The file holds no video stream');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const rawW = video.width ?? 0;
  const rawH = video.height ?? 0;
  if (rawW > o.limits.maxVideoSide || rawH > o.limits.maxVideoSide) {
    throw new ConversionError(
      'VIDEO_DIMENSIONS_TOO_LARGE',
      `The video is ${rawW} x ${rawH} pixels, over ${o.limits.maxVideoSide} on a side`,
    );
  }
  if (!(rawW >= 1 && rawH >= 1)) throw new ConversionError('FILE_CORRUPT', 'The video has no size');
  const seconds = Number(parsed.format?.duration ?? video.duration);
  if (!(seconds > 0)) throw new ConversionError('FILE_CORRUPT', 'The video has no length (cut short?)');
  checkSeconds(seconds, o.limits);
  const rotation = Math.abs(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0) % 180;
  const base = rate(video.r_frame_rate);
  const avg = rate(video.avg_frame_rate);
  return {
    container,
    width: rotation === 90 ? rawH : rawW,
    height: rotation === 90 ? rawW : rawH,
    durationMs: Math.round(seconds * 1000),
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    pixelFormat: video.pix_fmt ?? 'unknown',
    frameRate: avg || base,
    // an unknown average (some WebM) is taken as constant; a phone's variable rate shows as base != average
    constantFrameRate: !avg || !base || Math.abs(base - avg) / base < 0.01,
  };
}

function checkSeconds(seconds: number, limits: ConversionLimits): void {
  if (seconds > limits.maxVideoSeconds) {
    throw new ConversionError(
      'VIDEO_TOO_LONG',
      `The video lasts ${Math.round(seconds)} s, over ${limits.maxVideoSeconds} s`,
    );
  }
}

/** A probe made earlier (the upload's) against this run's limits: its size as shown and its length. */
function checkLimits(p: VideoProbe, limits: ConversionLimits): void {
  if (p.width > limits.maxVideoSide || p.height > limits.maxVideoSide) {
    throw new ConversionError(
      'VIDEO_DIMENSIONS_TOO_LARGE',
      `The video is ${p.width} x ${p.height} pixels, over ${limits.maxVideoSide} on a side`,
    );
  }
  checkSeconds(p.durationMs / 1000, limits);
}

function rate(fraction: string | undefined): number {
  const [n, d] = (fraction ?? '0/0').split('/').map(Number);
  return n && d ? n / d : 0;
}

function failure(what: string, r: { how: string; stderr: string }): ConversionError {
  const detail = r.stderr.trim().split('\n').slice(-2).join('; ');
  const message = `${what} (${r.how})${detail ? `: ${detail}` : ''}`;
  // the program said no: the file is broken; killed (its memory or CPU limit) or never started: it failed
  return new ConversionError(r.how.startsWith('exit code') ? 'FILE_CORRUPT' : 'FILE_CONVERSION_FAILED', message);
}

/** Long side and short side a display plays well: 1080p, landscape or portrait. */
const MAX_LONG = 1920;
const MAX_SHORT = 1080;

/**
 * Kept as it is (only remuxed) when Chromium plays it well: H.264 with AAC (or silent) in MP4 or MOV, or VP9 with
 * Opus (or silent) in WebM; 8-bit 4:2:0; at most 1080p; a constant frame rate. Anything else is transcoded, and
 * these are the reasons.
 */
export function transcodeReasons(p: VideoProbe): TranscodeReason[] {
  const reasons: TranscodeReason[] = [];
  const mp4 = p.container === 'mp4' || p.container === 'mov';
  const webm = p.container === 'webm';
  if (!mp4 && !webm) reasons.push('container');
  else if (mp4 ? p.videoCodec !== 'h264' : p.videoCodec !== 'vp9') reasons.push('video-codec');
  if ((mp4 || webm) && p.audioCodec !== null && p.audioCodec !== (mp4 ? 'aac' : 'opus')) reasons.push('audio-codec');
  if (Math.max(p.width, p.height) > MAX_LONG || Math.min(p.width, p.height) > MAX_SHORT) reasons.push('resolution');
  if (!p.constantFrameRate) reasons.push('variable-frame-rate');
  if (p.pixelFormat !== 'yuv420p' && p.pixelFormat !== 'yuvj420p') reasons.push('pixel-format');
  return reasons;
}

export interface ConvertVideoOptions {
  pool: RenderPool;
  limits?: Partial<ConversionLimits>;
  encode?: Partial<EncodeSettings>;
  signal?: AbortSignal;
  tmpDir?: string;
  isolateNetwork?: 'auto' | 'off';
  /**
   * The source as the upload probed it (probeVideo on the same bytes, its limits checked): not probed again. Its size
   * and length are checked against this run's limits all the same; one naming another container is ignored.
   */
  source?: VideoProbe;
  /** Share of the transcode done, 0..1, as ffmpeg reports it (about twice a second). */
  onProgress?: (done: number) => void;
  /**
   * Called with the playable file as soon as it is made, before the checks of it (probe, poster, hash) end: store it.
   * Its scratch directory stays until the store ends, whatever the checks say; a check that fails fails the
   * conversion after the store, and the caller drops what it stored.
   */
  onVideo: (video: PlayableFile) => Promise<void>;
}

/** At most 1080p either way up, never enlarged, even sizes for 4:2:0. */
const SCALE = `scale=w='if(gte(iw,ih),min(${MAX_LONG},iw),min(${MAX_SHORT},iw))':h='if(gte(iw,ih),min(${MAX_SHORT},ih),min(${MAX_LONG},ih))':force_original_aspect_ratio=decrease:force_divisible_by=2`;

/** Where the poster frame is taken: a second in (a tenth of a short clip), past a fade from black. */
const posterAt = (durationMs: number) => Math.min(1, durationMs / 10_000).toFixed(3);

/** The H.264 settings of a transcode (also the bench's baseline command). */
export function transcodeArgs(container: VideoContainer, input: string, output: string): string[] {
  return [
    '-nostdin',
    '-v',
    'error',
    ...inputArgs(container, input),
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-vf',
    SCALE,
    '-fps_mode',
    'cfr',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    `file:${output}`,
  ];
}

/**
 * A video becomes a playable file and a one-page poster: probed in the sandbox (limits refused before any frame is
 * decoded), then kept (remuxed without re-encoding: the MP4's moov atom moved to the front, metadata such as a
 * phone's GPS position dropped) or transcoded to H.264/AAC MP4 at most 1080p with its progress reported; the stored
 * file is checked (a kept one probed again, a transcode's own MP4 header read), and a frame near its start (taken by
 * the transcode itself, or from the kept file) is drawn as page 1 and its thumbnail (File management's card and the
 * playlist's picture). Every ffmpeg run holds one slot of the render pool, so videos queue fairly with documents.
 */
export async function convertVideo(
  path: string,
  container: VideoContainer,
  opts: ConvertVideoOptions,
  onPage: OnPage,
): Promise<{ pageCount: number; pages: PageSummary[]; video: Omit<VideoResult, 'path'>; timings: VideoTimings }> {
  const enc = { ...defaultEncode, ...opts.encode };
  return inVideoRun('pagecast-video-', opts, async (run) => {
    const { limits } = run;
    const dir = run.cwd;
    let t = performance.now();
    const lap = () => {
      const ms = performance.now() - t;
      t = performance.now();
      return Math.round(ms);
    };
    const known = opts.source?.container === container ? opts.source : undefined;
    if (known) checkLimits(known, limits);
    const source = known ?? (await probeVideo(path, container, run));
    const probeMs = lap();
    const reasons = transcodeReasons(source);
    const keep = reasons.length === 0;
    const webm = keep && container === 'webm';
    const out = join(dir, webm ? 'video.webm' : 'video.mp4');
    const poster = join(dir, 'poster.png');
    /** The poster frame drawn as the page and its thumbnail. */
    const draw: () => Promise<RenderedPage> = async () => {
      try {
        // At the video's own size, never drawn up to the page's: the browser scales it with the video it stands for,
        // and a 720p frame drawn up to 1920 cost about 90 ms more CPU (lanczos and a WebP 2.25 times larger) for no
        // detail (and would look sharper than the video's first frame it gives way to).
        return await drawImage(poster, false, limits, enc, { enlarge: false });
      } catch (err) {
        if (isConversionError(err)) throw new ConversionError('FILE_CORRUPT', 'The video has no frame to show');
        throw err;
      }
    };
    /** A transcode's page, begun as soon as its poster frame is written. */
    let drawing: Promise<RenderedPage> | undefined;
    if (keep) {
      const args = [
        '-nostdin',
        '-v',
        'error',
        ...inputArgs(container, path),
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-c',
        'copy',
        '-map_metadata',
        '-1',
        '-map_chapters',
        '-1',
        ...(webm ? ['-f', 'webm'] : ['-movflags', '+faststart', '-f', 'mp4']),
        '-y',
        `file:${out}`,
      ];
      const r = await runSandboxed('ffmpeg', args, sandbox(run));
      if (r.how !== 'ok') throw failure('The video cannot be remuxed', r);
    } else {
      const totalUs = source.durationMs * 1000;
      opts.onProgress?.(0);
      const args = transcodeArgs(container, path, out);
      args.splice(args.indexOf('-y'), 0, '-progress', 'pipe:1', '-nostats');
      // The poster as a second output of the same run, from the frames it decodes anyway (scaled as the video is):
      // one sandboxed ffmpeg less, and no decoding of the stored file again (about 0.25 s of CPU for a 720p video).
      // The frame is picked by trim before anything else: with an output -ss, ffmpeg 5.1 scaled and converted every
      // frame of the video to RGB for this output, before and after the one it kept (about 0.14 s of CPU for 6 s of
      // 720p).
      const posterPick = `trim=start=${posterAt(source.durationMs)},trim=end_frame=1`;
      args.push(
        // at the stored video's size (scaled as the video is), which drawImage keeps
        ...['-map', '0:v:0', '-vf', `${posterPick},${SCALE}`, '-frames:v', '1'],
        // One encoder thread: a frame-threaded PNG encoder held its only frame until the run's end. So the frame is
        // written as soon as it is decoded, whole under a temporary name then renamed (atomic_writing), and the page
        // is drawn while the transcode goes on. Stored uncompressed: deflating it (ffmpeg) and inflating it (sharp)
        // cost about 20 ms of CPU for nothing.
        ...['-threads:v', '1', '-f', 'image2', '-atomic_writing', '1', '-c:v', 'png', '-compression_level', '0'],
        ...['-y', `file:${poster}`],
      );
      let r: Awaited<ReturnType<typeof runSandboxed>>;
      try {
        r = await runSandboxed(
          'ffmpeg',
          args,
          sandbox(run, {
            onLine: (line) => {
              const m = /^out_time_us=(\d+)/.exec(line);
              if (m && opts.onProgress) opts.onProgress(Math.min(1, Number(m[1]) / totalUs));
              // each progress report (about twice a second) ends with its progress= line
              if (!drawing && line.startsWith('progress=') && existsSync(poster)) {
                drawing = draw();
                drawing.catch(() => {});
              }
            },
          }),
        );
      } catch (err) {
        // the page being drawn reads the scratch directory: it ends before the directory goes
        await drawing?.catch(() => {});
        throw err;
      }
      if (r.how !== 'ok') {
        await drawing?.catch(() => {});
        throw failure('The video cannot be transcoded', r);
      }
      opts.onProgress?.(1);
    }
    const remuxMs = lap();
    const stored = webm ? 'webm' : 'mp4';
    const mimeType = webm ? 'video/webm' : 'video/mp4';
    // a kept video's poster is drawn from the stored file (a transcode made it already, unless it wrote no frame)
    const posterMade =
      drawing !== undefined ||
      (!keep &&
        (await stat(poster)
          .then((st) => st.size > 0)
          .catch(() => false)));
    // The store starts now, beside the checks of the stored file, the page's drawing and the hash (the video's
    // ETag): on a 100 MB video the store was the longest step of all and the hash as long as the probe and the poster,
    // and none of them needs another's result. Each records its own length.
    const since = performance.now();
    let hashMs = 0;
    const hashing = () =>
      hashFile(out).then((h) => {
        hashMs = Math.round(performance.now() - since);
        return h;
      });
    /**
     * A transcode's output: its own MP4 header read (the length, size and codecs ffprobe would print, without a
     * second ffprobe's process start), the page drawn from the poster the transcode wrote, and the hash, at once.
     * A kept video, or a transcode that wrote no frame: the stored file probed again and its poster frame taken,
     * then the page drawn.
     */
    const checkStored = async () => {
      if (posterMade) {
        const [output, page, hashed] = await Promise.all([transcodedOutput(out, limits), drawing ?? draw(), hashing()]);
        return { output, page, hashed };
      }
      const [output, r, hashed] = await Promise.all([
        keep ? probeVideo(out, stored, run) : transcodedOutput(out, limits),
        runSandboxed(
          'ffmpeg',
          [
            '-nostdin',
            '-v',
            'error',
            '-ss',
            posterAt(source.durationMs),
            ...inputArgs(stored, out),
            '-frames:v',
            '1',
            '-f',
            'image2',
            '-c:v',
            'png',
            '-y',
            `file:${poster}`,
          ],
          // the slot names one process (the probe's); the poster's ends on the file's time limit like every run
          sandbox(run, { slot: undefined }),
        ),
        hashing(),
      ]);
      if (r.how !== 'ok') throw failure('The video has no frame to show', r);
      return { output, page: await draw(), hashed };
    };
    const storing = opts.onVideo({ path: out, mimeType }).then(() => Math.round(performance.now() - since));
    // awaited on every path: the scratch directory (the file being stored) stays until the store ends
    storing.catch(() => {});
    let checked: Awaited<ReturnType<typeof checkStored>>;
    let posterMs: number;
    let pageMs: number;
    try {
      checked = await checkStored();
      posterMs = lap();
      await onPage(checked.page);
      pageMs = lap();
    } catch (err) {
      await storing.catch(() => {});
      throw err;
    }
    const { output, page, hashed } = checked;
    const storeMs = await storing;
    const video: VideoResult = {
      path: out,
      ...hashed,
      mimeType,
      processing: keep ? 'kept' : 'transcoded',
      reasons,
      source,
      output,
    };
    const { path: _stored, ...summary } = video;
    return {
      pageCount: 1,
      pages: [
        {
          pageNumber: 1,
          width: page.width,
          height: page.height,
          sha256: page.sha256,
          text: '',
          bytes: page.webp.byteLength,
          thumbnail: {
            width: page.thumbnail.width,
            height: page.thumbnail.height,
            sha256: page.thumbnail.sha256,
            bytes: page.thumbnail.webp.byteLength,
          },
        },
      ],
      video: summary,
      timings: { probeMs, remuxMs, posterMs, pageMs, hashMs, storeMs },
    };
  });
}

/**
 * The stored file of a transcode, as a probe of it would describe it, from its own MP4 header (readMp4Header, which
 * reads what ffprobe reads: the movie header's length, the video sample entry's size, the track's rotation) and the
 * settings the transcode chose (yuv420p); checked as probeVideo checks a file. Only for an MP4 this service wrote.
 */
async function transcodedOutput(path: string, limits: ConversionLimits): Promise<VideoProbe> {
  let header: Mp4Header;
  try {
    header = await readMp4Header(path);
  } catch (err) {
    throw new ConversionError('FILE_CONVERSION_FAILED', 'The transcoded video cannot be read', { cause: err });
  }
  const v = header.video;
  if (!v) throw new ConversionError('FILE_CORRUPT', 'The file holds no video stream');
  if (v.width > limits.maxVideoSide || v.height > limits.maxVideoSide) {
    throw new ConversionError(
      'VIDEO_DIMENSIONS_TOO_LARGE',
      `The video is ${v.width} x ${v.height} pixels, over ${limits.maxVideoSide} on a side`,
    );
  }
  if (!(v.width >= 1 && v.height >= 1)) throw new ConversionError('FILE_CORRUPT', 'The video has no size');
  if (!(header.seconds > 0)) throw new ConversionError('FILE_CORRUPT', 'The video has no length (cut short?)');
  checkSeconds(header.seconds, limits);
  const turned = v.rotation % 180 === 90;
  return {
    container: 'mp4',
    width: turned ? v.height : v.width,
    height: turned ? v.width : v.height,
    durationMs: Math.round(header.seconds * 1000),
    videoCodec: v.codec,
    audioCodec: header.audioCodec,
    pixelFormat: 'yuv420p',
    frameRate: v.frameRate,
    constantFrameRate: v.constant,
  };
}

/** The clip's size: the video's shape within 640 x 360 (or 360 x 640), never enlarged, even sides for 4:2:0. */
export function previewClipSize(width: number, height: number): { width: number; height: number } {
  const { longSide, shortSide } = previewClipSettings;
  const scale = Math.min(1, longSide / Math.max(width, height), shortSide / Math.min(width, height));
  const even = (n: number) => Math.max(2, 2 * Math.floor((n * scale) / 2));
  return { width: even(width), height: even(height) };
}

export interface PreviewClipOptions {
  pool: RenderPool;
  limits?: Partial<ConversionLimits>;
  signal?: AbortSignal;
  tmpDir?: string;
  isolateNetwork?: 'auto' | 'off';
  /** Called with the clip before its scratch directory goes: store it. */
  onClip: (clip: PreviewClip) => Promise<void>;
}

/**
 * The preview clip of a video (its source, as probed by convertVideo): the first seconds scaled down, the preview mark
 * (the page previews' own picture, made by sharp as a transparent PNG of the clip's size) laid over every frame by
 * ffmpeg's overlay, so ffmpeg needs no font; x264 at a capped bitrate, no audio, faststart MP4. Run in the sandbox
 * like the transcode (file protocol only, the sniffed demuxer forced), holding a slot of the same render pool.
 */
export async function makePreviewClip(
  path: string,
  probe: VideoProbe,
  opts: PreviewClipOptions,
): Promise<Omit<PreviewClip, 'path'>> {
  return inVideoRun('pagecast-clip-', opts, async (run) => {
    const clip = await encodePreviewClip(path, probe, run);
    await opts.onClip(clip);
    const { path: _clip, ...summary } = clip;
    return summary;
  });
}

/**
 * The preview clip of a video known only by its container (a stored video whose clip was never made): probed first in
 * the same run, with the same limits, then encoded as makePreviewClip does.
 */
export async function makePreviewClipOf(
  path: string,
  container: VideoContainer,
  opts: PreviewClipOptions,
): Promise<Omit<PreviewClip, 'path'>> {
  return inVideoRun('pagecast-clip-', opts, async (run) => {
    const clip = await encodePreviewClip(path, await probeVideo(path, container, run), run);
    await opts.onClip(clip);
    const { path: _clip, ...summary } = clip;
    return summary;
  });
}

/** One sandboxed ffmpeg job: its scratch directory and a slot of the render pool, both given back however it ends. */
async function inVideoRun<T>(
  prefix: string,
  opts: Pick<PreviewClipOptions, 'pool' | 'limits' | 'signal' | 'tmpDir' | 'isolateNetwork'>,
  work: (run: VideoRunOptions) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), prefix));
  const slot = await opts.pool.acquire();
  try {
    return await work({
      limits: { ...defaultLimits, ...opts.limits },
      isolateNetwork: opts.isolateNetwork ?? 'auto',
      signal: opts.signal,
      slot,
      cwd: dir,
    });
  } finally {
    opts.pool.release(slot);
    await rm(dir, { recursive: true, force: true });
  }
}

async function encodePreviewClip(video: string, probe: VideoProbe, run: VideoRunOptions): Promise<PreviewClip> {
  const { width, height } = previewClipSize(probe.width, probe.height);
  const mark = join(run.cwd, 'mark.png');
  await sharp(watermarkSvg(width, height)).resize(width, height).png().toFile(mark);
  const out = join(run.cwd, 'preview.mp4');
  const { seconds, maxrateKbps } = previewClipSettings;
  const args = [
    '-nostdin',
    '-v',
    'error',
    ...inputArgs(probe.container, video),
    // our own PNG, read by the PNG demuxer alone (never image2's file patterns)
    '-f',
    'png_pipe',
    '-i',
    `file:${mark}`,
    '-filter_complex',
    `[0:v:0]scale=${width}:${height},setsar=1[v];[v][1:v]overlay=0:0,format=yuv420p[out]`,
    '-map',
    '[out]',
    '-t',
    String(seconds),
    '-an',
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '30',
    '-maxrate',
    `${maxrateKbps}k`,
    '-bufsize',
    `${maxrateKbps * 2}k`,
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    `file:${out}`,
  ];
  const r = await runSandboxed('ffmpeg', args, sandbox(run));
  if (r.how !== 'ok') throw failure('The preview clip cannot be made', r);
  return {
    path: out,
    ...(await hashFile(out)),
    mimeType: 'video/mp4',
    width,
    height,
    durationMs: Math.min(probe.durationMs, seconds * 1000),
  };
}

async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), bytes: (await stat(path)).size };
}

// Videos: what Chromium plays well is kept (remuxed: the MP4's moov in front), anything else is transcoded to H.264/AAC
// MP4 at most 1080p with its progress reported; a poster frame becomes page 1. Hostile and broken files are refused
// with their code, and a playlist naming a URL never reaches the network.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideoCorpus, videoCorpus } from '../../../../scripts/media-corpus.mjs';
import {
  ConversionError,
  convertDocument,
  defaultLimits,
  makePreviewClip,
  type PreviewClip,
  previewClipSettings,
  previewClipSize,
  probeVideo,
  type RenderedPage,
  RenderPool,
  sniffFile,
  transcodeReasons,
  type VideoContainer,
  type VideoProbe,
  type PlayableFile,
} from '../../src/conversion/index.ts';
import { readMp4Header } from '../../src/conversion/mp4-header.ts';
import { probeMedia, topBoxes } from '../media-inspect';

let pool: RenderPool;
let dir: string;
let tmp: string; // the engine's scratch space: empty after every conversion and refusal
let kept: string; // where onVideo copies the playable file, to probe it independently
let files: Record<string, string>;
let server: Server;
const requests: string[] = [];

beforeAll(async () => {
  pool = new RenderPool({ size: 2 });
  dir = await mkdtemp(join(tmpdir(), 'pagecast-video-in-'));
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-video-tmp-'));
  kept = await mkdtemp(join(tmpdir(), 'pagecast-video-out-'));
  // the HLS playlist's segment: any request reaching this server is a failure
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  files = makeVideoCorpus(dir, { segmentUrl: `http://127.0.0.1:${port}/segment.ts` });
});
afterAll(async () => {
  await pool.close();
  server.close();
  await Promise.all([dir, tmp, kept].map((d) => rm(d, { recursive: true, force: true })));
});

async function convert(name: string) {
  const pages: RenderedPage[] = [];
  const progress: number[] = [];
  let stored: PlayableFile | undefined;
  const out = join(kept, name);
  const result = await convertDocument(
    { path: files[name] as string },
    {
      pool,
      tmpDir: tmp,
      onProgress: (p) => progress.push(p),
      onVideo: async (v) => {
        stored = v;
        await copyFile(v.path, out);
      },
    },
    (p) => {
      pages.push(p);
    },
  );
  expect(await readdir(tmp)).toEqual([]);
  return { result, page: pages[0] as RenderedPage, count: pages.length, progress, stored, out };
}

const playable = Object.entries(videoCorpus).filter(([, e]) => ['kept', 'transcoded'].includes(e.expect));
const refused = Object.entries(videoCorpus).filter(([, e]) => !['kept', 'transcoded'].includes(e.expect));

describe('each video becomes a file Chromium plays well, and a poster', () => {
  it.each(playable)('%s', async (name, entry) => {
    const { result, page, count, stored, out, progress } = await convert(name);
    expect(result.kind).toBe('video');
    expect(result.video?.processing).toBe(entry.expect);
    expect(result.video?.reasons).toEqual(entry.reasons ?? []);
    // what was stored is the file the result describes: its type, and its hash (the ETag the route serves)
    expect(stored?.mimeType).toBe(result.video?.mimeType);
    expect(
      createHash('sha256')
        .update(await readFile(out))
        .digest('hex'),
    ).toBe(result.video?.sha256);
    // the stored file, read by ffprobe outside the engine
    const probed = probeMedia(out);
    const video = probed.streams.find((s) => s.codec_type === 'video');
    expect(video?.codec_name).toBe(entry.codec);
    expect([video?.width, video?.height]).toEqual([entry.shown?.width, entry.shown?.height]);
    expect(result.video?.output).toMatchObject(entry.shown as object);
    if (entry.codec === 'h264') {
      expect(probed.format.format_name).toContain('mp4');
      const boxes = topBoxes(await readFile(out));
      expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      const audio = probed.streams.find((s) => s.codec_type === 'audio');
      if (audio) expect(audio.codec_name).toBe('aac');
    } else {
      expect(probed.format.format_name).toContain('webm');
    }
    expect(result.video?.output.durationMs).toBeGreaterThan(300);
    // progress only for a transcode, rising to the end
    if (entry.expect === 'transcoded') {
      expect(progress.at(-1)).toBe(1);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    } else expect(progress).toEqual([]);
    // the poster is page 1, at the stored video's size as shown (a 320 x 240 clip not drawn up to the page's 1920),
    // with a thumbnail at most 320 wide
    expect(count).toBe(1);
    expect(result.pageCount).toBe(1);
    expect([page.width, page.height]).toEqual([entry.shown?.width, entry.shown?.height]);
    expect(await sharp(page.webp).metadata()).toMatchObject({ width: page.width, height: page.height });
    expect((await sharp(page.thumbnail.webp).metadata()).width).toBe(Math.min(320, page.width));
  });

  it('stores the playable file while it is checked; a step failing after that waits for the store, then cleans up', async () => {
    const copy = join(kept, 'stored-then-failed.mp4');
    const order: string[] = [];
    let pageAsked: () => void = () => {};
    const asked = new Promise<void>((r) => {
      pageAsked = r;
    });
    const err = await convertDocument(
      { path: files['moov-at-end.mp4'] as string },
      {
        pool,
        tmpDir: tmp,
        onVideo: async (v) => {
          order.push('store started');
          // a store still going when the page fails: the file it reads must still be there when it gets to it
          await asked;
          await new Promise((r) => setTimeout(r, 200));
          await copyFile(v.path, copy);
          order.push('store ended');
        },
      },
      () => {
        order.push('page');
        pageAsked();
        throw new Error('the page could not be stored');
      },
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the page could not be stored');
    // begun before the page, ended before the conversion gave up
    expect(order).toEqual(['store started', 'page', 'store ended']);
    expect(probeMedia(copy).format.format_name).toContain('mp4');
    expect(await readdir(tmp)).toEqual([]);
  });

  it('a kept MP4 is only remuxed: the same H.264 frames, the moov moved to the front', async () => {
    expect(topBoxes(await readFile(files['moov-at-end.mp4'] as string)).slice(-1)).toEqual(['moov']);
    const { result } = await convert('moov-at-end.mp4');
    expect(result.video?.source).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', constantFrameRate: true });
    expect(result.video?.output.durationMs).toBe(result.video?.source.durationMs);
  });
});

describe("a transcode's stored length, size and codecs", () => {
  /** A source made here with ffmpeg (outside the engine): its name, container, ffmpeg's arguments, its stored size. */
  const sources: [string, VideoContainer, () => string[], [number, number]][] = [
    // 2.4 s of sound against 2 s of picture: the movie's length is its longest track's
    [
      'longer-sound.avi',
      'avi',
      () => [
        ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=duration=2.4'],
        ...['-c:v', 'mpeg4'],
      ],
      [640, 360],
    ],
    // over 1080p standing up: scaled to 864 x 1920, at 24000/1001 fps
    [
      'portrait.avi',
      'avi',
      () => ['-f', 'lavfi', '-i', 'testsrc2=size=1080x2400:rate=24000/1001:duration=0.5', '-c:v', 'mpeg4'],
      [864, 1920],
    ],
    // HEVC 320 x 240 whose track matrix turns it a quarter: the transcode turns the pixels, stored 240 x 320
    [
      'turned.mp4',
      'mp4',
      () => ['-i', files['hevc.mp4'] as string, '-c', 'copy', '-metadata:s:v', 'rotate=90'],
      [240, 320],
    ],
  ];

  it.each(sources)(
    '%s: what the conversion records is what ffprobe says of the stored file',
    async (name, container, args, size) => {
      const source = join(dir, name);
      const made = spawnSync('ffmpeg', [
        '-v',
        'error',
        ...args(),
        '-f',
        container === 'avi' ? 'avi' : 'mp4',
        '-y',
        source,
      ]);
      expect(made.status, String(made.stderr)).toBe(0);
      const out = join(kept, `${name}.stored.mp4`);
      const pages: RenderedPage[] = [];
      const result = await convertDocument(
        { path: source },
        { pool, tmpDir: tmp, onVideo: (v) => copyFile(v.path, out) },
        (p) => {
          pages.push(p);
        },
      );
      // the page: the poster at the stored video's size as shown, never drawn up to the page's 1920
      const page = pages[0] as RenderedPage;
      expect([page.width, page.height]).toEqual(size);
      expect(await sharp(page.webp).metadata()).toMatchObject({ width: page.width, height: page.height });
      expect(result.video?.processing).toBe('transcoded');
      const probed = probeMedia(out);
      const video = probed.streams.find((s) => s.codec_type === 'video');
      const audio = probed.streams.find((s) => s.codec_type === 'audio');
      const output = result.video?.output as VideoProbe;
      expect([output.width, output.height]).toEqual(size);
      expect(output).toMatchObject({
        container: 'mp4',
        width: video?.width,
        height: video?.height,
        durationMs: Math.round(Number(probed.format.duration) * 1000),
        videoCodec: video?.codec_name,
        audioCodec: audio?.codec_name ?? null,
        constantFrameRate: true,
      });
      const [n, d] = (video?.avg_frame_rate ?? '0/1').split('/').map(Number);
      expect(output.frameRate).toBeCloseTo((n ?? 0) / (d ?? 1), 6);
      expect(await readdir(tmp)).toEqual([]);
    },
  );

  it('the poster is the frame a tenth in (of a short clip), not the first', async () => {
    // black for 0.1 s, then white: a 2 s clip's poster is taken at 0.2 s
    const source = join(dir, 'black-then-white.avi');
    const made = spawnSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'color=black:s=320x240:r=25:d=0.1'],
      ...['-f', 'lavfi', '-i', 'color=white:s=320x240:r=25:d=1.9', '-filter_complex', '[0][1]concat=n=2:v=1'],
      ...['-c:v', 'mpeg4', '-y', source],
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    const pages: RenderedPage[] = [];
    const result = await convertDocument({ path: source }, { pool, tmpDir: tmp, onVideo: async () => {} }, (p) => {
      pages.push(p);
    });
    expect(result.video?.processing).toBe('transcoded');
    const { channels } = await sharp((pages[0] as RenderedPage).webp).stats();
    expect(channels[0]?.mean).toBeGreaterThan(200);
  });

  it('a file with no movie header is not described: the reader throws, so the conversion fails', async () => {
    const cut = join(dir, 'no-moov.mp4');
    // an MP4's first bytes only: ftyp, then nothing a reader can use
    await writeFile(cut, (await readFile(files['h264-aac.mp4'] as string)).subarray(0, 32));
    await expect(readMp4Header(cut)).rejects.toThrow(/moov/);
  });
});

describe("the marketplace's preview clip", () => {
  /** The share of clearly red pixels in the clip's frame at 1 s: the mark's PREVIEW (the sources are white). */
  async function redShare(path: string): Promise<number> {
    const png = join(kept, `frame-${Math.random().toString(36).slice(2)}.png`);
    const r = spawnSync('ffmpeg', ['-v', 'error', '-ss', '1', '-i', path, '-frames:v', '1', '-y', png]);
    expect(r.status, String(r.stderr)).toBe(0);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i + 2 < data.length; i += 3) {
      if ((data[i] ?? 0) > 150 && (data[i + 1] ?? 255) < 130 && (data[i + 2] ?? 255) < 130) red++;
    }
    return red / (info.width * info.height);
  }

  /** The clip of a video as the worker makes it: from the original, after the conversion probed it. */
  async function clipOf(path: string) {
    const source = await probeVideo(path, (await sniffFile(path)).video as VideoContainer, {
      limits: defaultLimits,
      isolateNetwork: 'auto',
      cwd: tmp,
    });
    const out = join(kept, `clip-${Math.random().toString(36).slice(2)}.mp4`);
    let stored: PreviewClip | undefined;
    const clip = await makePreviewClip(path, source, {
      pool,
      tmpDir: tmp,
      onClip: async (c) => {
        stored = c;
        await copyFile(c.path, out);
      },
    });
    expect(await readdir(tmp)).toEqual([]);
    expect(stored?.sha256).toBe(clip.sha256);
    return { source, clip, out };
  }

  it('is the first 10 s at most 360p, silent, H.264 with faststart, the watermark burned in', async () => {
    // a white 12 s 720p H.264/AAC source (kept as it is): any red in the clip is the mark
    const source = join(dir, 'white-720p.mp4');
    const made = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=white:s=1280x720:r=25:d=12',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=12',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      '-y',
      source,
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    const { clip, out } = await clipOf(source);
    expect(clip).toMatchObject({ width: 640, height: 360, durationMs: 10_000, mimeType: 'video/mp4' });
    const probed = probeMedia(out);
    expect(probed.format.format_name).toContain('mp4');
    expect(probed.streams.map((s) => s.codec_type)).toEqual(['video']);
    expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    const seconds = Number(probed.format.duration);
    expect(seconds).toBeLessThanOrEqual(previewClipSettings.seconds + 0.05);
    expect(seconds).toBeGreaterThan(previewClipSettings.seconds - 0.5);
    const boxes = topBoxes(await readFile(out));
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    // low bitrate: well under the cap's 10 s worth (400 kbit/s, 500 KB) plus the container
    expect(clip.bytes).toBeLessThan(600_000);
    expect(await redShare(out)).toBeGreaterThan(0.02);
    expect(await redShare(source)).toBe(0);
  });

  it('keeps a short, small video its own length and size', async () => {
    const { source, clip, out } = await clipOf(files['h264-aac.mp4'] as string);
    const { durationMs, width, height } = source;
    expect(clip).toMatchObject({ width, height, durationMs });
    expect(probeMedia(out).streams[0]).toMatchObject({ width, height });
  });

  it('fits either way up within 640 x 360, never enlarged, even sides', () => {
    expect(previewClipSize(1920, 1080)).toEqual({ width: 640, height: 360 });
    expect(previewClipSize(1080, 1920)).toEqual({ width: 360, height: 640 });
    expect(previewClipSize(1440, 1080)).toEqual({ width: 480, height: 360 });
    expect(previewClipSize(320, 240)).toEqual({ width: 320, height: 240 });
    expect(previewClipSize(3840, 1000)).toEqual({ width: 640, height: 166 });
  });
});

describe('hostile and broken videos are refused with their code', () => {
  it.each(refused)('%s', async (name, entry) => {
    const err = await convertDocument(
      { path: files[name] as string },
      { pool, tmpDir: tmp, onVideo: async () => {} },
      () => {
        throw new Error('no page may be drawn');
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversionError);
    expect((err as ConversionError).code).toBe(entry.expect);
    expect(await readdir(tmp)).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('the claimed 100,000 x 100,000 is named in the message', async () => {
    const err = await sniffFile(files['claims-100000.avi'] as string).then(() =>
      probeVideo(files['claims-100000.avi'] as string, 'avi', {
        limits: defaultLimits,
        isolateNetwork: 'auto',
        cwd: tmp,
      }).catch((e: unknown) => e),
    );
    expect((err as ConversionError).message).toContain('100000 x 100000');
  });

  it('even past the type check and with the network allowed, ffmpeg opens no URL: the demuxer is forced, file: only', async () => {
    // the playlist handed to ffprobe as if it were an MP4, with no network namespace: the whitelist alone holds
    const err = await probeVideo(files['hls-url.mp4'] as string, 'mp4', {
      limits: defaultLimits,
      isolateNetwork: 'off',
      cwd: tmp,
    }).catch((e: unknown) => e);
    expect((err as ConversionError).code).toBe('FILE_CORRUPT');
    const concat = await probeVideo(files['concat-passwd.mkv'] as string, 'mkv', {
      limits: defaultLimits,
      isolateNetwork: 'off',
      cwd: tmp,
    }).catch((e: unknown) => e);
    expect((concat as ConversionError).code).toBe('FILE_CORRUPT');
    expect(requests).toEqual([]);
  });

  it('a video over the length limit is refused before it is converted', async () => {
    const err = await convertDocument(
      { path: files['h264-aac.mp4'] as string },
      { pool, tmpDir: tmp, limits: { maxVideoSeconds: 1 }, onVideo: async () => {} },
      () => {},
    ).catch((e: unknown) => e);
    expect((err as ConversionError).code).toBe('VIDEO_TOO_LONG');
  });
});

describe("the upload's probe", () => {
  const path = () => files['h264-aac.mp4'] as string;
  const probed = () => probeVideo(path(), 'mp4', { limits: defaultLimits, isolateNetwork: 'auto', cwd: tmp });

  it('is where the conversion starts: the same bytes are not probed again', async () => {
    // marked, so that a probe made again would show: its length is not the file's
    const given = { ...(await probed()), durationMs: 1234 };
    const result = await convertDocument(
      { path: path() },
      { pool, tmpDir: tmp, videoSource: given, onVideo: async () => {} },
      () => {},
    );
    expect(result.video?.source).toEqual(given);
    expect(result.video?.processing).toBe('kept');
  });

  it("is checked against the run's limits, and ignored when it names another container", async () => {
    const given = await probed();
    const err = await convertDocument(
      { path: path() },
      { pool, tmpDir: tmp, videoSource: given, limits: { maxVideoSide: 100 }, onVideo: async () => {} },
      () => {},
    ).catch((e: unknown) => e);
    expect((err as ConversionError).code).toBe('VIDEO_DIMENSIONS_TOO_LARGE');
    const other = await convertDocument(
      { path: path() },
      { pool, tmpDir: tmp, videoSource: { ...given, container: 'webm', durationMs: 1234 }, onVideo: async () => {} },
      () => {},
    );
    expect(other.video?.source).toEqual(given);
  });
});

describe('keep or transcode', () => {
  const good: VideoProbe = {
    container: 'mp4',
    width: 1920,
    height: 1080,
    durationMs: 10_000,
    videoCodec: 'h264',
    audioCodec: 'aac',
    pixelFormat: 'yuv420p',
    frameRate: 30,
    constantFrameRate: true,
  };
  it('keeps H.264/AAC MP4 and MOV, VP9/Opus WebM, silent or not, at most 1080p either way up', () => {
    expect(transcodeReasons(good)).toEqual([]);
    expect(transcodeReasons({ ...good, container: 'mov', audioCodec: null })).toEqual([]);
    expect(transcodeReasons({ ...good, container: 'webm', videoCodec: 'vp9', audioCodec: 'opus' })).toEqual([]);
    expect(transcodeReasons({ ...good, width: 1080, height: 1920 })).toEqual([]);
  });
  it('names every reason to transcode', () => {
    expect(transcodeReasons({ ...good, container: 'mkv' })).toEqual(['container']);
    expect(transcodeReasons({ ...good, container: 'webm', videoCodec: 'vp8', audioCodec: 'vorbis' })).toEqual([
      'video-codec',
      'audio-codec',
    ]);
    expect(transcodeReasons({ ...good, width: 1920, height: 1440 })).toEqual(['resolution']);
    expect(transcodeReasons({ ...good, constantFrameRate: false })).toEqual(['variable-frame-rate']);
    expect(transcodeReasons({ ...good, pixelFormat: 'yuv420p10le' })).toEqual(['pixel-format']);
  });
});

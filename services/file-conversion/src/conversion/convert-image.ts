import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { ConversionError, isConversionError } from './errors.ts';
import { type ConversionLimits, defaultEncode, defaultLimits, type EncodeSettings } from './limits.ts';
import { canIsolateNetwork } from './office-to-pdf.ts';
import type { RenderPool } from './pool.ts';
import { killGroup } from './process-group.ts';
import type { OnPage, PageSummary, RenderedPage } from './render-pdf.ts';
import type { ImageFormat } from './sniff.ts';

/** What a photo's header says, read without decoding its pixels. */
export interface ImageHeader {
  format: ImageFormat;
  /** As shown: EXIF orientation (or HEIF's rotation) applied. */
  width: number;
  height: number;
  /** HEIF's codec: 'hevc' needs the kept decoder (heif-convert), 'av1' is sharp's own. */
  compression?: string;
}

/**
 * Reads a photo's dimensions from its header and refuses, before any pixel is decoded, one that claims more pixels
 * than the limit (a decompression bomb: a few kilobytes of PNG can claim 100,000 x 100,000) or a shape no screen can
 * show. A header sharp cannot read is a broken file.
 */
export async function readImageHeader(
  path: string,
  format: ImageFormat,
  limits: Pick<ConversionLimits, 'maxImagePixels' | 'maxAspectRatio'> = defaultLimits,
): Promise<ImageHeader> {
  let meta: Metadata;
  try {
    // The header only: the pixel check is ours, with our code, so sharp's own limit is off for this read.
    meta = await sharp(path, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch (err) {
    throw new ConversionError('FILE_CORRUPT', 'The image header cannot be read', { cause: err });
  }
  const raw = { width: meta.width ?? 0, height: meta.height ?? 0 };
  // An animated GIF or WebP reports the height of all its frames stacked; one frame is what is shown.
  if (meta.pageHeight && (meta.pages ?? 1) > 1) raw.height = meta.pageHeight;
  if (!(raw.width >= 1 && raw.height >= 1)) throw new ConversionError('FILE_CORRUPT', 'The image has no size');
  if (raw.width * raw.height > limits.maxImagePixels) {
    throw new ConversionError(
      'IMAGE_TOO_MANY_PIXELS',
      `The image claims ${raw.width} x ${raw.height} pixels, over the limit of ${limits.maxImagePixels}`,
    );
  }
  // EXIF orientation 5-8 turns the photo a quarter: it is shown with width and height swapped.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? raw.height : raw.width;
  const height = turned ? raw.width : raw.height;
  if (Math.max(width, height) / Math.min(width, height) > limits.maxAspectRatio) {
    throw new ConversionError('FILE_PAGE_TOO_LARGE', `The image is ${width} x ${height}, too long to show`);
  }
  return { format, width, height, ...(meta.compression ? { compression: meta.compression } : {}) };
}

export interface ConvertImageOptions {
  pool: RenderPool;
  limits?: Partial<ConversionLimits>;
  encode?: Partial<EncodeSettings>;
  signal?: AbortSignal;
  tmpDir?: string;
  isolateNetwork?: 'auto' | 'off';
}

/**
 * A photo becomes a one-page file: decoded once (HEVC-coded HEIF by Debian's heif-convert in a sandboxed process,
 * everything else by sharp with its pixel limit and truncation refused), turned upright by its EXIF orientation,
 * flattened on white, converted to sRGB, drawn with its long side at the page size the player shows, and encoded
 * from raw pixels, so no metadata (EXIF, GPS, XMP, ICC) can reach the page or its thumbnail. A GIF shows its first
 * frame.
 */
export async function convertImage(
  path: string,
  header: ImageHeader,
  opts: ConvertImageOptions,
  onPage: OnPage,
): Promise<{ pageCount: number; pages: PageSummary[] }> {
  const limits = { ...defaultLimits, ...opts.limits };
  const enc = { ...defaultEncode, ...opts.encode };
  const slot = await opts.pool.acquire();
  let dir: string | undefined;
  try {
    let input = path;
    let orient = true;
    if (header.compression === 'hevc') {
      dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'pagecast-heif-'));
      input = await decodeHevc(path, dir, limits, opts.pool.maxMemoryMb, opts.isolateNetwork ?? 'auto', opts.signal);
      orient = false; // libheif applies HEIF's own rotation and mirroring while decoding
    }
    const page = await withAbort(drawImage(input, orient, limits, enc), opts.signal);
    await onPage(page);
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
    };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
    opts.pool.release(slot);
  }
}

/**
 * Draws a decoded picture (a photo, a video's poster frame) as a page and its thumbnail, from raw pixels: brought to
 * the page's long side (limits.maxLongSide), a small photo drawn up to it; with `enlarge` false (a video's poster, shown
 * under the video at the video's own size) only ever brought down.
 */
export async function drawImage(
  input: string,
  orient: boolean,
  limits: ConversionLimits,
  enc: EncodeSettings,
  { enlarge = true }: { enlarge?: boolean } = {},
): Promise<RenderedPage> {
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    // 'truncated' refuses a file cut short; smaller warnings (common in cameras' JPEGs) do not refuse a photo.
    let img = sharp(input, { limitInputPixels: limits.maxImagePixels, failOn: 'truncated', page: 0, pages: 1 });
    if (orient) img = img.autoOrient();
    pixels = await img
      .resize(limits.maxLongSide, limits.maxLongSide, { fit: 'inside', withoutEnlargement: !enlarge })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (isConversionError(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) throw new ConversionError('IMAGE_TOO_MANY_PIXELS', message, { cause: err });
    throw new ConversionError('FILE_CORRUPT', `The image cannot be decoded: ${message}`, { cause: err });
  }
  const { width, height, channels } = pixels.info;
  const raw = { raw: { width, height, channels } } as const;
  const thumbWidth = Math.min(enc.thumbnailWidth, width);
  const [webp, thumb] = await Promise.all([
    sharp(pixels.data, raw).webp({ quality: enc.webpQuality, effort: enc.webpEffort }).toBuffer(),
    sharp(pixels.data, raw)
      .resize({ width: thumbWidth })
      .webp({ quality: enc.webpQuality, effort: enc.webpEffort })
      .toBuffer({ resolveWithObject: true }),
  ]);
  return {
    pageNumber: 1,
    pageCount: 1,
    width,
    height,
    webp,
    sha256: sha256(webp),
    thumbnail: { webp: thumb.data, width: thumb.info.width, height: thumb.info.height, sha256: sha256(thumb.data) },
    text: '',
  };
}

/**
 * HEVC-coded HEIF (an iPhone's HEIC): sharp's prebuilt libvips has no HEVC decoder (a patent-encumbered codec it
 * leaves out), so Debian's `heif-convert` (libheif with libde265) decodes it to PNG, kept apart like the PDF
 * renderer: no network, an address-space and CPU-time limit, its own process group killed on the time limit, only
 * PATH in its environment, and a scratch directory removed afterwards.
 */
async function decodeHevc(
  path: string,
  dir: string,
  limits: ConversionLimits,
  maxMemoryMb: number,
  isolateNetwork: 'auto' | 'off',
  signal: AbortSignal | undefined,
): Promise<string> {
  const out = join(dir, 'decoded.png');
  const run = [
    'prlimit',
    `--as=${maxMemoryMb * 1024 * 1024}`,
    `--cpu=${Math.ceil(limits.fileTimeoutMs / 1000) + 1}`,
    '--',
    'heif-convert',
    '--quiet',
    path,
    out,
  ];
  const [cmd, ...args] = isolateNetwork === 'auto' && canIsolateNetwork() ? ['unshare', '-n', '--', ...run] : run;
  const child = spawn(cmd as string, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 2000) stderr += d.toString();
  });
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`not started: ${err.message}`));
    child.once('close', (code, sig) => resolve(sig ? `signal ${sig}` : code === 0 ? 'ok' : `exit code ${code}`));
  });
  try {
    const how = await withAbort(exited, signal);
    if (how !== 'ok') {
      const detail = stderr.trim().split('\n').slice(-2).join('; ');
      const message = `The HEIC image cannot be decoded (${how})${detail ? `: ${detail}` : ''}`;
      // the decoder said no: the file is broken; killed (its memory or CPU limit) or never started: it failed
      throw new ConversionError(how.startsWith('exit code') ? 'FILE_CORRUPT' : 'FILE_CONVERSION_FAILED', message);
    }
    return out;
  } catch (err) {
    killGroup(child);
    throw err;
  }
}

/** Waits for p unless the signal (the file's time limit) fires first. */
function withAbort<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const reason = () => signal.reason ?? new ConversionError('FILE_CONVERSION_TIMEOUT', 'aborted');
  if (signal.aborted) return Promise.reject(reason());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

// Photos as one-page files: every format the upload takes is drawn upright, in sRGB, at the page size the player
// shows, with no metadata left; hostile and broken ones are refused with their code before anything is stored.
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaCorpus, mediaCorpus } from '../../../../scripts/media-corpus.mjs';
import {
  ConversionError,
  convertDocument,
  defaultLimits,
  type RenderedPage,
  RenderPool,
  imageFormatOf,
  readImageHeader,
  sniffFile,
} from '../../src/conversion/index.ts';

let pool: RenderPool;
let dir: string;
let tmp: string; // the engine's scratch space: empty after every conversion and refusal
let files: Record<string, string>;

beforeAll(async () => {
  pool = new RenderPool({ size: 2 });
  dir = await mkdtemp(join(tmpdir(), 'pagecast-media-in-'));
  tmp = await mkdtemp(join(tmpdir(), 'pagecast-media-tmp-'));
  files = await makeMediaCorpus(dir);
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

async function convert(name: string) {
  const pages: RenderedPage[] = [];
  const result = await convertDocument({ path: files[name] as string }, { pool, tmpDir: tmp }, (p) => {
    pages.push(p);
  });
  expect(await readdir(tmp)).toEqual([]);
  return { result, page: pages[0] as RenderedPage, count: pages.length };
}

/** The pixel at (x, y) of a WebP, as [r, g, b]. */
async function pixel(webp: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}
const isRed = ([r, g, b]: number[]) => (r as number) > 200 && (g as number) < 60 && (b as number) < 60;
const isBlue = ([r, g, b]: number[]) => (r as number) < 60 && (g as number) < 60 && (b as number) > 200;

const converted = Object.entries(mediaCorpus).filter(([, e]) => e.expect === 'convert');
const refused = Object.entries(mediaCorpus).filter(([, e]) => e.expect !== 'convert');

describe('each photo format becomes one page the player shows', () => {
  it.each(converted)('%s: one page, long side 1920, thumbnail 320 wide, its size as shown', async (name, entry) => {
    const { result, page, count } = await convert(name);
    expect(result.kind).toBe('image');
    expect(result.pageCount).toBe(1);
    expect(count).toBe(1);
    expect(result.image).toMatchObject(entry.shown as object);
    const shown = entry.shown as { width: number; height: number };
    expect(Math.max(page.width, page.height)).toBe(defaultLimits.maxLongSide);
    expect(page.width / page.height).toBeCloseTo(shown.width / shown.height, 2);
    const meta = await sharp(page.webp).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([page.width, page.height]);
    expect(page.thumbnail.width).toBe(320);
    expect((await sharp(page.thumbnail.webp).metadata()).width).toBe(320);
  });

  it('EXIF orientation 6 is applied: the left half (red) of the stored pixels is on top', async () => {
    const { page } = await convert('exif-rotated-gps.jpg');
    expect([page.width, page.height]).toEqual([960, 1920]);
    expect(isRed(await pixel(page.webp, 480, 100))).toBe(true);
    expect(isBlue(await pixel(page.webp, 480, 1800))).toBe(true);
  });

  it.each(['exif-rotated-gps.jpg', 'exif-gps.heic'])(
    'no metadata is left: %s has EXIF with GPS, the page and thumbnail have none',
    async (name) => {
      const input = await sharp(files[name]).metadata();
      // the GPS IFD pointer (tag 0x8825, little-endian) and the camera make are in the input's EXIF
      expect(input.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
      expect(input.exif?.includes(Buffer.from('PagecastTestCam'))).toBe(true);
      const { page } = await convert(name);
      for (const webp of [page.webp, page.thumbnail.webp]) {
        const meta = await sharp(webp).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        // nor any EXIF, XMP or ICC chunk in the WebP container, nor the camera's name anywhere
        for (const chunk of ['EXIF', 'XMP ', 'ICCP', 'PagecastTestCam']) {
          expect(webp.includes(Buffer.from(chunk))).toBe(false);
        }
      }
    },
  );

  it('a CMYK JPEG is converted to sRGB: its red half stays red', async () => {
    const { page } = await convert('cmyk.jpg');
    expect(isRed(await pixel(page.webp, 100, page.height / 2))).toBe(true);
    // sRGB's pure blue is outside CMYK's gamut: it comes back a print blue, still clearly blue
    const [r, g, b] = (await pixel(page.webp, page.width - 100, page.height / 2)) as [number, number, number];
    expect(b).toBeGreaterThan(Math.max(r, g) + 50);
  });

  it('an animated GIF shows its first frame (red), not a later one', async () => {
    const { page } = await convert('animated.gif');
    expect(isRed(await pixel(page.webp, page.width / 2, page.height / 2))).toBe(true);
  });

  it('transparency is drawn on white, as a document page is', async () => {
    const { page } = await convert('alpha.png');
    expect(await pixel(page.webp, page.width - 50, page.height / 2)).toEqual([255, 255, 255]);
  });

  it('HEIC (HEVC, which sharp cannot decode) goes through heif-convert and keeps its picture', async () => {
    const { result, page } = await convert('photo.heic');
    expect(result.image?.compression).toBe('hevc');
    expect(isRed(await pixel(page.webp, 100, page.height / 2))).toBe(true);
    expect(isBlue(await pixel(page.webp, page.width - 100, page.height / 2))).toBe(true);
  });

  it('the type comes from the bytes: a PNG named .pdf is the image it is', async () => {
    const renamed = join(dir, 'really-a-png.pdf');
    await copyFile(files['deep.png'] as string, renamed);
    expect(await sniffFile(renamed)).toEqual({ kind: 'image', image: 'png' });
  });
});

describe('the format from the first bytes', () => {
  /** An ISO-BMFF ftyp box with a major brand and compatible brands. */
  const ftyp = (major: string, ...compatible: string[]) => {
    const box = Buffer.alloc(16 + compatible.length * 4);
    box.writeUInt32BE(box.length, 0);
    box.write(`ftyp${major}`, 4, 'latin1');
    compatible.forEach((b, i) => {
      box.write(b, 16 + i * 4, 'latin1');
    });
    return box;
  };

  it('knows each format by its magic number, HEIF and AVIF by their brands, and nothing else', () => {
    expect(imageFormatOf(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('jpeg');
    expect(imageFormatOf(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('png');
    expect(imageFormatOf(Buffer.from('GIF89a\x10\x00', 'latin1'))).toBe('gif');
    expect(imageFormatOf(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(imageFormatOf(ftyp('heic', 'mif1', 'heic'))).toBe('heic');
    // an iPhone's generic brands alone: HEIF, its codec read from the header before decoding
    expect(imageFormatOf(ftyp('mif1', 'mif1', 'miaf'))).toBe('heic');
    expect(imageFormatOf(ftyp('avif', 'mif1', 'avif', 'miaf'))).toBe('avif');
    expect(imageFormatOf(ftyp('mif1', 'avif'))).toBe('avif');
    // video (MP4, QuickTime) and a RIFF that is not WebP (AVI, WAV) are not photos
    expect(imageFormatOf(ftyp('isom', 'isom', 'mp42'))).toBeUndefined();
    expect(imageFormatOf(ftyp('qt  ', 'qt  '))).toBeUndefined();
    expect(imageFormatOf(Buffer.from('RIFF\x00\x00\x00\x00AVI LIST', 'latin1'))).toBeUndefined();
    // a box size past what was read, or too small, is no ftyp
    const lying = ftyp('heic', 'mif1');
    lying.writeUInt32BE(4096, 0);
    expect(imageFormatOf(lying)).toBeUndefined();
    expect(imageFormatOf(Buffer.from('49492a00', 'hex'))).toBeUndefined(); // TIFF
  });
});

describe('hostile and broken photos are refused with their code, leaving nothing behind', () => {
  it.each(refused)('%s is refused', async (name, entry) => {
    let pages = 0;
    const error = await convertDocument({ path: files[name] as string }, { pool, tmpDir: tmp }, () => {
      pages++;
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).code).toBe(entry.expect);
    expect(pages).toBe(0);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('the pixel bomb is refused from its header in milliseconds, without decoding it', async () => {
    const started = performance.now();
    const rssBefore = process.memoryUsage().rss;
    await expect(readImageHeader(files['pixel-bomb.png'] as string, 'png')).rejects.toMatchObject({
      code: 'IMAGE_TOO_MANY_PIXELS',
      status: 422,
    });
    expect(performance.now() - started).toBeLessThan(1000);
    // decoding 10^10 grey pixels would take 10 GB
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('a photo just over the pixel limit is refused, one at it is not', async () => {
    const limits = { maxImagePixels: 40_000, maxAspectRatio: 10 };
    const at = join(dir, 'at-limit.png');
    const over = join(dir, 'over-limit.png');
    const grey = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#888' } });
    await grey(200, 200).png().toFile(at);
    await grey(201, 200).png().toFile(over);
    await expect(readImageHeader(at, 'png', limits)).resolves.toMatchObject({ width: 200, height: 200 });
    await expect(readImageHeader(over, 'png', limits)).rejects.toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
  });

  it('a photo too long to show (over 10:1) is refused like such a page', async () => {
    const long = join(dir, 'banner.png');
    await sharp({ create: { width: 2200, height: 200, channels: 3, background: '#888' } })
      .png()
      .toFile(long);
    await expect(readImageHeader(long, 'png')).rejects.toMatchObject({ code: 'FILE_PAGE_TOO_LARGE' });
  });

  it('a HEIC cut short is refused by the sandboxed decoder as broken', async () => {
    const whole = await sharp(files['photo.heic']).metadata();
    expect(whole.compression).toBe('hevc');
    const bytes = await import('node:fs/promises').then((fs) => fs.readFile(files['photo.heic'] as string));
    const cut = join(dir, 'cut.heic');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    const error = await convertDocument({ path: cut }, { pool, tmpDir: tmp }, () => {}).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((error as ConversionError).code).toBe('FILE_CORRUPT');
    expect(await readdir(tmp)).toEqual([]);
  });
});

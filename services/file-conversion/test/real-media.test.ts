// Real-world media (tests/media: phones' and cameras' own files, their licences in tests/media/README.md) uploaded
// through the service as a member would: each photo ends as one upright page with no metadata left, each video is
// kept (the same frames, the moov moved to the front) or transcoded with its reason, and has a poster and its length.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  destroyService,
  identityHeaders,
  type Json,
  newUser,
  startService,
  type TestService,
  upload,
  waitConverted,
} from './helpers';
import { probeMedia, topBoxes } from './media-inspect';

const samples = new URL('../../../tests/media/', import.meta.url).pathname;
const sample = (name: string) => join(samples, name);

let svc: TestService;
let scratch: string;
beforeAll(async () => {
  svc = await startService();
  scratch = await mkdtemp(join(tmpdir(), 'pagecast-real-media-'));
});
afterAll(async () => {
  await destroyService(svc);
  await rm(scratch, { recursive: true, force: true });
});

/** Uploads a sample under its own name and waits for the worker; the file as the API then shows it. */
async function uploadSample(owner: string, name: string) {
  const up = await upload(svc, owner, { bytes: await readFile(sample(name)), name }, { title: name });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const done = await waitConverted(svc, owner, up.body.id);
  expect(done).toMatchObject({ status: 'private', statusReason: null, pageCount: 1, pagesReady: 1 });
  const pages = (await call(svc, owner, 'GET', `/api/files/${up.body.id}/pages`)).body as Json[];
  expect(pages).toHaveLength(1);
  const served = async (path: string) => {
    const res = await fetch(`${svc.server.url}${path}`, { headers: identityHeaders(svc, owner) });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const page = pages[0] as { width: number; height: number; imagePath: string };
  return {
    up: up.body,
    done,
    page,
    webp: await served(page.imagePath),
    thumbnail: await served(done.thumbnailUrl as string),
  };
}

/** Mean absolute difference (0-255) between two pictures, both drawn small in grey. */
async function difference(a: Sharp, b: Sharp): Promise<number> {
  const small = (s: Sharp) =>
    s.resize(64, 64, { fit: 'fill' }).greyscale().removeAlpha().raw().toBuffer() as Promise<Buffer>;
  const [x, y] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs((x[i] as number) - (y[i] as number));
  return sum / x.length;
}

/** The EXIF GPS IFD pointer (tag 0x8825) in either byte order. */
const hasGpsPointer = (exif: Buffer) =>
  exif.includes(Buffer.from([0x88, 0x25, 0x00, 0x04])) || exif.includes(Buffer.from([0x25, 0x88, 0x04, 0x00]));

interface PhotoCase {
  format: string;
  /** as shown, EXIF orientation applied */
  shown: [number, number];
  /** words of the camera's EXIF that must not reach what is served */
  camera?: string;
  gps?: boolean;
  icc?: boolean;
}

/**
 * The sample as it should look, upright. sharp turns a JPEG or PNG by its EXIF; an HEVC-coded HEIC is drawn by
 * libheif's own heif-convert (sharp's build has no HEVC decoder), which applies HEIF's rotation itself.
 */
async function uprightReference(name: string, format: string): Promise<Buffer> {
  if (format !== 'heic') return sharp(sample(name)).rotate().toBuffer();
  const out = join(scratch, `${name}.png`);
  const r = spawnSync('heif-convert', [sample(name), out], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return readFile(out);
}

const photos: Record<string, PhotoCase> = {
  'phone-gps-lumia.jpg': { format: 'jpeg', shown: [1278, 720], camera: 'Lumia 820', gps: true },
  'phone-gps-iphone.jpg': { format: 'jpeg', shown: [180, 135], camera: 'iPhone 4S', gps: true },
  // stored 640 x 480 on its side, EXIF orientation 8 (turn 90 degrees anticlockwise to show it)
  'exif-orientation-8.jpg': { format: 'jpeg', shown: [480, 640] },
  'chelsea.png': { format: 'png', shown: [451, 300], icc: true },
  'retina.jpg': { format: 'jpeg', shown: [1411, 1411] },
  // HEVC-coded, so decoded by the kept decoder in its own process, not by sharp
  'phone-xiaomi.heic': { format: 'heic', shown: [2592, 1944], camera: 'POCO F3', gps: true },
};

describe('real photos become one upright page with nothing of the camera left', () => {
  it.each(Object.entries(photos))('%s', async (name, c) => {
    // what the sample carries, so the stripping below is tested against something (EXIF is stored uncompressed)
    const raw = await readFile(sample(name));
    if (c.gps) expect(hasGpsPointer(raw)).toBe(true);
    if (c.camera) expect(raw.includes(Buffer.from(c.camera))).toBe(true);
    if (c.icc) expect((await sharp(sample(name)).metadata()).icc).toBeDefined();

    const owner = newUser();
    const { up, done, page, webp, thumbnail } = await uploadSample(owner, name);
    const media = { format: c.format, width: c.shown[0], height: c.shown[1] };
    expect(up).toMatchObject({ kind: 'image', media });
    expect(done).toMatchObject({ kind: 'image', media });
    // the player's page: long side 1920 (small photos drawn up to it), the photo's shape as shown
    expect(Math.max(page.width, page.height)).toBe(1920);
    expect(page.width / page.height).toBeCloseTo(c.shown[0] / c.shown[1], 2);
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: page.width, height: page.height });
    expect((await sharp(thumbnail).metadata()).width).toBe(320);

    // the same picture, the right way up: close to the sample turned by its EXIF, far from it turned over
    const upright = await uprightReference(name, c.format);
    const same = await difference(sharp(webp), sharp(upright));
    expect(same).toBeLessThan(6);
    expect(await difference(sharp(webp), sharp(upright).rotate(180))).toBeGreaterThan(same * 3);

    for (const served of [webp, thumbnail]) {
      const meta = await sharp(served).metadata();
      expect([meta.exif, meta.xmp, meta.icc, meta.orientation]).toEqual([undefined, undefined, undefined, undefined]);
      for (const chunk of ['EXIF', 'XMP ', 'ICCP', ...(c.camera ? [c.camera] : [])]) {
        expect(served.includes(Buffer.from(chunk)), chunk).toBe(false);
      }
    }
  });

  it('the orientation is applied, not ignored: the sample drawn as stored is far from the page', async () => {
    const name = 'exif-orientation-8.jpg';
    const owner = newUser();
    const { webp } = await uploadSample(owner, name);
    // "RIGHT" reads across the upright page; as stored, the word runs down a narrow column
    const asStored = await sharp(sample(name)).resize(480, 640, { fit: 'fill' }).toBuffer();
    const upright = await sharp(sample(name)).rotate().toBuffer();
    expect(await difference(sharp(webp), sharp(asStored))).toBeGreaterThan(
      (await difference(sharp(webp), sharp(upright))) * 3,
    );
  });
});

/** ffprobe of a stored video, apart from the engine. */

/** A hash of each video packet, as stored (no decoding): equal lists are the same encoded frames. */
function videoPackets(path: string): string[] {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v', '-c', 'copy', '-f', 'framemd5', '-'], {
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').at(-1)?.trim() ?? '');
}

/** Uploads a video sample; the file, its stored playable video (written to scratch) and its poster. */
async function uploadVideo(name: string) {
  const owner = newUser();
  const converted = await uploadSample(owner, name);
  const stored = await svc.server.context.data.storage.getBuffer(`videos/${converted.up.id}`);
  expect(stored).toBeDefined();
  const path = join(scratch, `${converted.up.id}.mp4`);
  await writeFile(path, stored as Buffer);
  return { ...converted, stored: stored as Buffer, path };
}

describe('real videos are kept when Chromium plays them well, transcoded otherwise, with why', () => {
  it('an H.264/AAC 720p MP4 (moov at its end) is kept: the same frames, the moov moved to the front, 2 s', async () => {
    const name = 'big-buck-bunny-2s.mp4';
    const original = await readFile(sample(name));
    expect(topBoxes(original).indexOf('moov')).toBeGreaterThan(topBoxes(original).indexOf('mdat'));
    const { up, done, page, stored, path } = await uploadVideo(name);
    const source = { format: 'mp4', width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac' };
    expect(up).toMatchObject({ kind: 'video', media: source });
    expect(done).toMatchObject({
      kind: 'video',
      media: { ...source, processing: 'kept', transcodeReasons: [] },
      videoUrl: `/media/video/${up.id}`,
    });
    expect(done.media.durationMs).toBeGreaterThanOrEqual(1950);
    expect(done.media.durationMs).toBeLessThanOrEqual(2100);
    // not re-encoded: every packet of the video stream is the sample's own
    const packets = videoPackets(path);
    expect(packets).toHaveLength(50);
    expect(packets).toEqual(videoPackets(sample(name)));
    const boxes = topBoxes(stored);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(probeMedia(path).streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    // the poster is page 1 at the video's own size
    expect([page.width, page.height]).toEqual([1280, 720]);
  });

  it('a camera clip in AVI (MS-MPEG4 v3) is transcoded to H.264 MP4 for its container, its size and 2 s kept', async () => {
    const name = 'pedestrians-2s.avi';
    const { up, done, page, stored, path } = await uploadVideo(name);
    expect(up).toMatchObject({
      kind: 'video',
      media: { format: 'avi', width: 768, height: 576, videoCodec: 'msmpeg4v3', audioCodec: null },
    });
    expect(done).toMatchObject({
      kind: 'video',
      media: {
        format: 'avi',
        width: 768,
        height: 576,
        videoCodec: 'h264',
        processing: 'transcoded',
        transcodeReasons: ['container'],
      },
    });
    expect(done.media.durationMs).toBeGreaterThanOrEqual(1900);
    expect(done.media.durationMs).toBeLessThanOrEqual(2100);
    const probed = probeMedia(path);
    expect(probed.format.format_name).toContain('mp4');
    expect(probed.streams.map((s) => [s.codec_type, s.codec_name, s.width, s.height])).toEqual([
      ['video', 'h264', 768, 576],
    ]);
    // the camera's 10 frames a second, kept constant
    expect(probed.streams[0]?.avg_frame_rate).toBe('10/1');
    const boxes = topBoxes(stored);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    // the poster at the video's own size, never drawn up to the page's
    expect([page.width, page.height]).toEqual([768, 576]);
  });
});

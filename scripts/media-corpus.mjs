// Makes the media corpus: small photos and videos of every kind the upload takes, and hostile ones it must refuse. Written at
// test time (a few kilobytes each, under a second in all) with sharp, Debian's ffmpeg and libheif's heif-enc, so the
// repository keeps the recipe rather than binaries. Every file here is made from generated pixels: no licence to note.
//   node scripts/media-corpus.mjs <dir>     writes the corpus into <dir> and prints what it made
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const require = createRequire(import.meta.url);
/** sharp is a dependency of file-conversion (hoisted to the root's node_modules). */
const sharp = require('sharp');

/**
 * The corpus, by name: what each file is and what the conversion must do with it. `expect` is 'convert' (with the
 * size shown after EXIF orientation) or the error code of the refusal.
 */
export const mediaCorpus = {
  'exif-rotated-gps.jpg': {
    what: 'JPEG 400x200, EXIF orientation 6 (shown 200x400), GPS position and camera make in EXIF',
    expect: 'convert',
    shown: { width: 200, height: 400 },
  },
  'cmyk.jpg': {
    what: 'CMYK JPEG 300x200 (as print workflows save)',
    expect: 'convert',
    shown: { width: 300, height: 200 },
  },
  'deep.png': { what: '16-bit RGB PNG 320x240', expect: 'convert', shown: { width: 320, height: 240 } },
  'alpha.png': { what: 'PNG 200x200 with a transparent half', expect: 'convert', shown: { width: 200, height: 200 } },
  'photo.webp': { what: 'WebP 320x180', expect: 'convert', shown: { width: 320, height: 180 } },
  'animated.gif': {
    what: 'GIF 160x120, 3 frames (red, green, blue): the first frame is shown',
    expect: 'convert',
    shown: { width: 160, height: 120 },
  },
  'photo.heic': {
    what: 'HEIC (HEVC) 320x240 made by heif-enc',
    expect: 'convert',
    shown: { width: 320, height: 240 },
  },
  'exif-gps.heic': {
    what: 'HEIC 400x200 made from the JPEG above: its EXIF (orientation 6, GPS) copied, no HEIF rotation (irot)',
    expect: 'convert',
    // HEIF's own transforms decide how it is shown; its EXIF orientation is ignored, as the HEIF standard says
    shown: { width: 400, height: 200 },
  },
  'photo.avif': { what: 'AVIF (AV1) 320x240', expect: 'convert', shown: { width: 320, height: 240 } },
  'truncated.jpg': { what: 'a 1200x800 JPEG cut at half its bytes', expect: 'FILE_CORRUPT' },
  'truncated.png': { what: 'a 600x400 PNG cut at half its bytes', expect: 'FILE_CORRUPT' },
  'pixel-bomb.png': {
    what: 'a 1 KB PNG whose header claims 100,000 x 100,000 pixels (a decompression bomb)',
    expect: 'IMAGE_TOO_MANY_PIXELS',
  },
  'not-an-image.jpg': { what: 'text named .jpg', expect: 'FILE_TYPE_UNSUPPORTED' },
};

/**
 * The video corpus, by name: `expect` is 'kept' or 'transcoded' (with the reasons and the stored size) or the error
 * code of the refusal. Tiny on purpose (small frames, a second or two): a transcode here is a fraction of a second.
 */
export const videoCorpus = {
  'h264-aac.mp4': {
    what: 'H.264/AAC MP4 320x240, 30 fps CFR, 2 s, moov at the front',
    expect: 'kept',
    shown: { width: 320, height: 240 },
    codec: 'h264',
  },
  'moov-at-end.mp4': {
    what: 'H.264/AAC MP4 320x240, 1 s, moov after the media data (ffmpeg without +faststart)',
    expect: 'kept',
    shown: { width: 320, height: 240 },
    codec: 'h264',
  },
  'vp9-opus.webm': {
    what: 'VP9/Opus WebM 320x240, 1 s',
    expect: 'kept',
    shown: { width: 320, height: 240 },
    codec: 'vp9',
  },
  'mpeg4.avi': {
    what: 'MPEG-4 part 2 in AVI with PCM audio, 320x240, 1 s',
    expect: 'transcoded',
    reasons: ['container'],
    shown: { width: 320, height: 240 },
    codec: 'h264',
  },
  'hevc.mkv': {
    what: 'HEVC in Matroska 320x240, 1 s, no audio',
    expect: 'transcoded',
    reasons: ['container'],
    shown: { width: 320, height: 240 },
    codec: 'h264',
  },
  'hevc.mp4': {
    what: 'HEVC/AAC MP4 320x240, 1 s',
    expect: 'transcoded',
    reasons: ['video-codec'],
    shown: { width: 320, height: 240 },
    codec: 'h264',
  },
  '4k.mp4': {
    what: 'H.264 MP4 3840x2160, 4 frames at 8 fps: scaled down to 1920x1080',
    expect: 'transcoded',
    reasons: ['resolution'],
    shown: { width: 1920, height: 1080 },
    codec: 'h264',
  },
  'truncated.mp4': { what: 'the moov-at-end MP4 cut at half its bytes (no moov atom)', expect: 'FILE_CORRUPT' },
  'claims-100000.avi': {
    what: 'a 17 KB raw-video AVI whose headers claim 100,000 x 100,000 pixels',
    expect: 'VIDEO_DIMENSIONS_TOO_LARGE',
  },
  'claims-10000.avi': {
    what: 'a 17 KB raw-video AVI whose headers claim 10,000 x 10,000 pixels (over the 8192 limit)',
    expect: 'VIDEO_DIMENSIONS_TOO_LARGE',
  },
  'hls-url.mp4': {
    what: 'an HLS playlist (#EXTM3U) named .mp4 whose segment is a URL',
    expect: 'MEDIA_EXTERNAL_REFERENCE',
  },
  'concat-passwd.mkv': {
    what: "an ffconcat playlist named .mkv that asks for file '/etc/passwd'",
    expect: 'MEDIA_EXTERNAL_REFERENCE',
  },
};

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
}

/** A PNG chunk: length, type, data, CRC-32. */
function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A valid PNG header claiming width x height (8-bit grey), with a few compressed rows: decoding it would need GBs. */
export function pixelBombPng(width = 100_000, height = 100_000) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = deflateSync(Buffer.alloc((width + 1) * 4), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Left half red, right half blue: which way up a photo was drawn can be read from its pixels. */
function halves(width, height, channels = 3) {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      if (x < width / 2) data[at] = 255;
      else data[at + 2] = 255;
      if (channels === 4) data[at + 3] = 255;
    }
  }
  return sharp(data, { raw: { width, height, channels } });
}

/** Writes every file of the corpus into dir; returns their paths by name. */
export async function makeMediaCorpus(dir) {
  mkdirSync(dir, { recursive: true });
  const path = (name) => join(dir, name);
  await halves(400, 200)
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'PagecastTestCam', Model: 'Corpus' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '35/1 40/1 30/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '139/1 45/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toFile(path('exif-rotated-gps.jpg'));
  await halves(300, 200).toColourspace('cmyk').jpeg({ quality: 85 }).toFile(path('cmyk.jpg'));
  run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x240:rate=1',
    '-frames:v',
    '1',
    '-pix_fmt',
    'rgb48be',
    path('deep.png'),
  ]);
  const alpha = Buffer.alloc(200 * 200 * 4);
  for (let i = 0; i < 200 * 200; i++) {
    alpha[i * 4 + 1] = 128;
    alpha[i * 4 + 3] = i % 200 < 100 ? 255 : 0;
  }
  await sharp(alpha, { raw: { width: 200, height: 200, channels: 4 } })
    .png()
    .toFile(path('alpha.png'));
  await halves(320, 180).webp({ quality: 80 }).toFile(path('photo.webp'));
  run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:size=160x120:rate=1:duration=1[a];color=c=green:size=160x120:rate=1:duration=1[b];color=c=blue:size=160x120:rate=1:duration=1[c];[a][b][c]concat=n=3',
    '-filter_complex_threads',
    '1',
    '-loop',
    '0',
    path('animated.gif'),
  ]);
  const heicSource = join(dir, '.heic-source.png');
  await halves(320, 240).png().toFile(heicSource);
  run('heif-enc', ['-q', '60', '-o', path('photo.heic'), heicSource]);
  rmSync(heicSource);
  run('heif-enc', ['-q', '60', '-o', path('exif-gps.heic'), path('exif-rotated-gps.jpg')]);
  await halves(320, 240).avif({ quality: 60, effort: 2 }).toFile(path('photo.avif'));
  const noisy = await sharp({
    create: {
      width: 1200,
      height: 800,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(path('truncated.jpg'), noisy.subarray(0, Math.floor(noisy.length / 2)));
  const noisyPng = await sharp({
    create: {
      width: 600,
      height: 400,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  writeFileSync(path('truncated.png'), noisyPng.subarray(0, Math.floor(noisyPng.length / 2)));
  writeFileSync(path('pixel-bomb.png'), pixelBombPng());
  writeFileSync(path('not-an-image.jpg'), 'This is text, not a JPEG.\n');
  return Object.fromEntries(Object.keys(mediaCorpus).map((name) => [name, path(name)]));
}

/** ffmpeg from lavfi sources: a moving test pattern and a tone, so a decoder and a player have work to show. */
function ffmpeg(out, { size = '320x240', rate = 30, seconds = 1, audio = true, args }) {
  run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
    '-threads',
    '1',
    ...args,
    out,
  ]);
}

/** A raw-video AVI whose main and stream headers claim width x height (ffmpeg reads the size from them). */
function claimingAvi(dir, width, height) {
  const raw = join(dir, '.raw.avi');
  ffmpeg(raw, { size: '32x24', rate: 5, audio: false, args: ['-c:v', 'rawvideo', '-pix_fmt', 'bgr24'] });
  const data = readFileSync(raw);
  rmSync(raw);
  const avih = data.indexOf('avih') + 8;
  data.writeUInt32LE(width, avih + 32);
  data.writeUInt32LE(height, avih + 36);
  const strf = data.indexOf('strf') + 8;
  data.writeInt32LE(width, strf + 4);
  data.writeInt32LE(height, strf + 8);
  return data;
}

/**
 * Writes every video of the corpus into dir; returns their paths by name. `segmentUrl` is the URL the HLS playlist
 * names (a test serves it to prove nothing ever asks for it).
 */
export function makeVideoCorpus(dir, { segmentUrl = 'http://127.0.0.1:9/segment.ts' } = {}) {
  mkdirSync(dir, { recursive: true });
  const path = (name) => join(dir, name);
  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const aac = ['-c:a', 'aac', '-b:a', '64k'];
  ffmpeg(path('h264-aac.mp4'), { seconds: 2, args: [...h264, ...aac, '-movflags', '+faststart'] });
  ffmpeg(path('moov-at-end.mp4'), { args: [...h264, ...aac] });
  ffmpeg(path('vp9-opus.webm'), {
    args: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libopus'],
  });
  ffmpeg(path('mpeg4.avi'), { args: ['-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'pcm_s16le'] });
  const hevc = ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error:pools=1:frame-threads=1'];
  ffmpeg(path('hevc.mkv'), { audio: false, args: hevc });
  ffmpeg(path('hevc.mp4'), { args: [...hevc, ...aac, '-tag:v', 'hvc1'] });
  ffmpeg(path('4k.mp4'), { size: '3840x2160', rate: 8, seconds: 0.5, audio: false, args: h264 });
  const whole = readFileSync(path('moov-at-end.mp4'));
  writeFileSync(path('truncated.mp4'), whole.subarray(0, Math.floor(whole.length / 2)));
  writeFileSync(path('claims-100000.avi'), claimingAvi(dir, 100_000, 100_000));
  writeFileSync(path('claims-10000.avi'), claimingAvi(dir, 10_000, 10_000));
  writeFileSync(
    path('hls-url.mp4'),
    `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${segmentUrl}\n#EXT-X-ENDLIST\n`,
  );
  writeFileSync(path('concat-passwd.mkv'), "ffconcat version 1.0\nfile '/etc/passwd'\nduration 1\n");
  return Object.fromEntries(Object.keys(videoCorpus).map((name) => [name, path(name)]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'media-corpus');
  const made = await makeMediaCorpus(dir);
  for (const [name, file] of Object.entries(made)) {
    console.log(`${name.padEnd(22)} ${String(readFileSync(file).length).padStart(7)} B  ${mediaCorpus[name].what}`);
  }
  for (const [name, file] of Object.entries(makeVideoCorpus(dir))) {
    console.log(`${name.padEnd(22)} ${String(readFileSync(file).length).padStart(7)} B  ${videoCorpus[name].what}`);
  }
}

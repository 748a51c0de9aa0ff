// Makes the media corpus: small photos of every kind the upload takes, and hostile ones it must refuse. Written at
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'media-corpus');
  const made = await makeMediaCorpus(dir);
  for (const [name, file] of Object.entries(made)) {
    console.log(`${name.padEnd(22)} ${String(readFileSync(file).length).padStart(7)} B  ${mediaCorpus[name].what}`);
  }
}

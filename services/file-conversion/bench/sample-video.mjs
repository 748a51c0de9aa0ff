// The media benchmarks' source videos, made on the spot with ffmpeg (no file kept in the repository), and the
// resumable upload a browser's tus client makes (POST, then PATCH calls), so a benchmark goes through the real path.
//
//   makeSampleVideo(path, { megabytes })  an H.264/AAC MP4, 1080p30, moov at the end, of about that size
//   tusUpload({ baseUrl, cookie, path, title, chunkBytes })  → { id, lastByteAt, answeredAt } (performance.now())
import { spawn } from 'node:child_process';
import { open, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';

function ffmpeg(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-nostdin', '-v', 'error', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}

/**
 * An H.264 (yuv420p, constant 30 fps) and AAC MP4 at 1080p of about `megabytes` MB with its moov atom at the end, as
 * a camera or a phone writes it: what the conversion keeps, moving the moov to the front. Encoding the whole length
 * would take a minute on a shared machine, so 2 s of a noisy test pattern (about 10 Mbit/s, a phone's rate) are
 * encoded once and repeated by the concat demuxer without re-encoding, with a tone as long as the whole.
 */
export async function makeSampleVideo(path, { megabytes = 100 } = {}) {
  const dir = dirname(path);
  const segment = join(dir, 'segment.mp4');
  const list = join(dir, 'segments.txt');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30:duration=2',
    '-vf',
    'noise=alls=6:allf=t',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '26',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '60',
    '-an',
    '-f',
    'mp4',
    '-y',
    segment,
  ]);
  const count = Math.max(1, Math.round((megabytes * 1e6) / (await stat(segment)).size));
  await writeFile(list, `${"file 'segment.mp4'\n".repeat(count)}`);
  await ffmpeg([
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${count * 2}`,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'copy',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-shortest',
    '-f',
    'mp4',
    '-y',
    path,
  ]);
  await rm(segment, { force: true });
  await rm(list, { force: true });
  return { bytes: (await stat(path)).size, seconds: count * 2 };
}

/** One request with `body` (a Buffer), resolving with its answer; `sentAt` is when its last byte left. */
function send(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': body?.length ?? 0 } });
    let sentAt;
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          sentAt,
          answeredAt: performance.now(),
        }),
      );
      res.on('error', reject);
    });
    // the callback runs once the last byte is handed to the socket
    req.end(body, () => {
      sentAt = performance.now();
    });
  });
}

const metadata = (fields) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/**
 * The file at `path` through the resumable upload (tus 1.0: POST /api/files/uploads, then PATCH calls of
 * `chunkBytes`, the upload dialog's 24 MiB), as the member of `cookie`. Returns the file's id, when the last byte
 * was sent and when that call was answered (the file exists then).
 */
export async function tusUpload({ baseUrl, cookie, path, title, chunkBytes = 24 * 1024 * 1024 }) {
  const { size } = await stat(path);
  const tus = { cookie, 'tus-resumable': '1.0.0' };
  const created = await send(`${baseUrl}/api/files/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(size),
      'upload-metadata': metadata({ filename: 'bench.mp4', title }),
    },
  });
  if (created.status !== 201) throw new Error(`POST /api/files/uploads: ${created.status} ${created.body}`);
  const location = created.headers.location;
  const file = await open(path);
  try {
    let last;
    for (let offset = 0; offset < size; ) {
      const length = Math.min(chunkBytes, size - offset);
      const body = Buffer.alloc(length);
      await file.read(body, 0, length, offset);
      last = await send(`${baseUrl}${location}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body,
      });
      if (last.status < 200 || last.status > 299) throw new Error(`PATCH ${location}: ${last.status} ${last.body}`);
      offset += length;
    }
    const { id } = JSON.parse(last.body);
    if (!id) throw new Error(`the last PATCH named no file: ${last.body}`);
    return { id, lastByteAt: last.sentAt, answeredAt: last.answeredAt };
  } finally {
    await file.close();
  }
}

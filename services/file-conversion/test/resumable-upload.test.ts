// The resumable (tus 1.0) upload against the real servers: chunks, a dropped connection resumed on another
// instance, the limits checked before any byte is stored, ownership, and the bytes deciding at the end.
import http from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import { expireResumableUploads } from '../src/use-cases/resumable-upload';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  identityHeaders,
  newUser,
  objectNames,
  startService,
  type TestService,
  waitConverted,
} from './helpers';
import { topBoxes } from './media-inspect';

let svc: TestService;
/** a second instance on the same database and bucket: a resumed upload may reach either */
let other: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startService();
  other = await startService({ share: svc, settings: { CONVERSION_ROLE: 'api' } });
  dir = await mkdtemp(join(tmpdir(), 'pagecast-tus-'));
});
afterAll(async () => {
  await other?.close();
  await destroyService(svc);
  await rm(dir, { recursive: true, force: true });
});

const PATH = '/api/files/uploads';
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

function create(on: TestService, user: string, size: number | undefined, fields: Record<string, string>) {
  return fetch(`${on.server.url}${PATH}`, {
    method: 'POST',
    headers: {
      ...identityHeaders(on, user),
      'tus-resumable': '1.0.0',
      ...(size === undefined ? {} : { 'upload-length': String(size) }),
      'upload-metadata': metadata(fields),
    },
  });
}

function head(on: TestService, user: string, location: string) {
  return fetch(`${on.server.url}${location}`, {
    method: 'HEAD',
    headers: { ...identityHeaders(on, user), 'tus-resumable': '1.0.0' },
  });
}

function patch(on: TestService, user: string, location: string, offset: number, bytes: Buffer) {
  return fetch(`${on.server.url}${location}`, {
    method: 'PATCH',
    headers: {
      ...identityHeaders(on, user),
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(bytes),
  });
}

/** A PATCH whose connection drops after `sent` of its bytes (Content-Length says all of them). */
function patchThenDrop(on: TestService, user: string, location: string, offset: number, bytes: Buffer, sent: number) {
  return new Promise<void>((resolve) => {
    const req = http.request(`${on.server.url}${location}`, {
      method: 'PATCH',
      headers: {
        ...identityHeaders(on, user),
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, sent), () => {
      // the bytes have left; give the server a moment to read them, then cut the connection
      setTimeout(() => req.destroy(), 300);
    });
  });
}

/** Sends `bytes` as PATCH calls of `chunk` bytes, each on the instance `on(i)` names; the last call's answer. */
async function sendAll(
  on: (i: number) => TestService,
  user: string,
  location: string,
  bytes: Buffer,
  chunk: number,
): Promise<Response> {
  let last: Response | undefined;
  for (let i = 0, at = 0; at < bytes.length; i += 1, at += chunk) {
    last = await patch(on(i), user, location, at, bytes.subarray(at, at + chunk));
    if (at + chunk < bytes.length) expect(last.status).toBe(204);
  }
  return last as Response;
}

const spooled = (on: TestService) => readdir(on.server.context.data.resumable.spool.dir);

/**
 * Whether the instance holds no copy of an upload beyond those it held `before` (an upload that went on elsewhere
 * leaves its copy until it has been idle 10 minutes): each was taken, dropped or removed after the file's job.
 */
async function spoolLeftNothing(on: TestService, before: string[]): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if ((await spooled(on)).every((f) => before.includes(f))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function tusObjects(): Promise<string[]> {
  return objectNames(svc, 'tus/');
}

/** The S3 multipart uploads still open for one upload (MinIO lists them for an exact key only). */
async function openMultipartUploads(owner: string, location: string): Promise<number> {
  const { client, bucket } = svc.server.context.s3;
  const key = `tus/${owner}/${location.slice(location.lastIndexOf('/') + 1)}`;
  let n = 0;
  for await (const _ of client.listIncompleteUploads(bucket, key, true)) n += 1;
  return n;
}

describe('resumable upload (tus)', () => {
  it('a video sent in chunks, dropped mid-way and resumed on another instance from HEAD, becomes a converted file', async () => {
    const owner = newUser();
    const video = await readFile(makeVideoCorpus(dir)['h264-aac.mp4'] as string);
    expect(video.length).toBeGreaterThan(30_000);
    const created = await create(svc, owner, video.length, { filename: 'shop.mp4', title: 'Shop video' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    expect(location).toMatch(/^\/api\/files\/uploads\/[0-9a-f-]{36}$/);
    expect(created.headers.get('upload-expires')).toBeTruthy();

    // first chunk whole
    const first = 10_000;
    const one = await patch(svc, owner, location, 0, video.subarray(0, first));
    expect([one.status, one.headers.get('upload-offset')]).toEqual([204, String(first)]);
    // the other instance knows where it stands
    expect((await head(other, owner, location)).headers.get('upload-offset')).toBe(String(first));
    // the second chunk's connection drops part-way
    await patchThenDrop(svc, owner, location, first, video.subarray(first, first + 15_000), 6_000);

    // As tus-js-client does: HEAD, then PATCH from the offset it answers, on the other instance. The upload's lock
    // is shared by the instances, so HEAD waits for the dropped call to finish storing and its answer holds. Never
    // more than arrived. Bytes short of a whole S3 part (5 MiB) wait as one "incomplete part" object, which a dropped
    // call that was merging into it may lose: they are sent again from the offset HEAD answers. (The whole video
    // here is shorter than a part; whole parts, as the dialog's 24 MiB chunks make, are never lost.)
    const resumed = await head(other, owner, location);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('upload-length')).toBe(String(video.length));
    expect(resumed.headers.get('cache-control')).toBe('no-store');
    const offset = Number(resumed.headers.get('upload-offset'));
    expect(offset).toBeLessThanOrEqual(first + 6_000);
    const middle = offset + Math.floor((video.length - offset) / 2);
    const two = await patch(other, owner, location, offset, video.subarray(offset, middle));
    expect([two.status, two.headers.get('upload-offset')]).toEqual([204, String(middle)]);
    // a PATCH from the wrong offset is refused and changes nothing
    const wrong = await patch(other, owner, location, middle + 1, video.subarray(middle + 1, middle + 100));
    expect([wrong.status, (await wrong.json()).code]).toEqual([409, 'CONFLICT']);
    expect(await openMultipartUploads(owner, location)).toBeGreaterThan(0);
    // the rest: the call that completes the upload creates the file
    const last = await patch(other, owner, location, middle, video.subarray(middle));
    expect(last.status).toBe(200);
    const file = await last.json();
    expect(file).toMatchObject({
      title: 'Shop video',
      filename: 'shop.mp4',
      kind: 'video',
      sizeBytes: video.length,
      media: { format: 'mp4', width: 320, height: 240, videoCodec: 'h264' },
    });
    // the original is the bytes sent, and the upload's own objects are gone
    expect(await svc.server.context.data.storage.getBuffer(`originals/${file.id}`)).toEqual(video);
    expect(await tusObjects()).toEqual([]);
    expect(await openMultipartUploads(owner, location)).toBe(0);
    expect((await head(svc, owner, location)).status).toBe(404);

    const done = await waitConverted(svc, owner, file.id);
    expect(done).toMatchObject({ status: 'private', pageCount: 1, media: { processing: 'kept' } });
    expect(done.videoUrl).toBe(`/media/video/${file.id}`);
  });

  it("every chunk through one instance: the finish reads the instance's copy, nothing back from S3, and the kept video has its moov first", async () => {
    const owner = newUser();
    const video = await readFile(makeVideoCorpus(dir)['moov-at-end.mp4'] as string);
    expect(topBoxes(video).at(-1)).toBe('moov');
    const readBack = vi.spyOn(svc.server.context.data.storage, 'downloadTo');
    const before = await spooled(svc);
    const created = await create(svc, owner, video.length, { filename: 'cam.mp4', title: 'Camera video' });
    const location = created.headers.get('location') as string;
    const last = await sendAll(() => svc, owner, location, video, Math.ceil(video.length / 3));
    expect(last.status).toBe(200);
    const file = await last.json();
    expect(file).toMatchObject({
      kind: 'video',
      sizeBytes: video.length,
      media: { format: 'mp4', videoCodec: 'h264' },
    });
    expect(readBack).not.toHaveBeenCalled();
    // the original is the bytes sent, the upload's objects are gone
    expect(await svc.server.context.data.storage.getBuffer(`originals/${file.id}`)).toEqual(video);
    expect(await tusObjects()).toEqual([]);
    const done = await waitConverted(svc, owner, file.id);
    expect(done).toMatchObject({ status: 'private', media: { processing: 'kept' } });
    // converted from that copy too (the worker downloads nothing), remuxed with the moov in front
    expect(readBack).not.toHaveBeenCalled();
    const stored = (await svc.server.context.data.storage.getBuffer(`videos/${file.id}`)) as Buffer;
    const boxes = topBoxes(stored);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(await spoolLeftNothing(svc, before)).toBe(true);
  });

  it("a chunk that went to another instance leaves a gap in this one's copy: the finish reads the object back", async () => {
    const owner = newUser();
    const video = await readFile(makeVideoCorpus(dir)['h264-aac.mp4'] as string);
    const readBack = vi.spyOn(svc.server.context.data.storage, 'downloadTo');
    const before = await spooled(svc);
    const created = await create(svc, owner, video.length, { filename: 'shop.mp4', title: 'Split upload' });
    const location = created.headers.get('location') as string;
    // first and last chunk here, the middle one on the other instance
    const last = await sendAll((i) => (i === 1 ? other : svc), owner, location, video, Math.ceil(video.length / 3));
    expect(last.status).toBe(200);
    const file = await last.json();
    expect(readBack).toHaveBeenCalledTimes(1);
    expect(await svc.server.context.data.storage.getBuffer(`originals/${file.id}`)).toEqual(video);
    expect(await waitConverted(svc, owner, file.id)).toMatchObject({
      status: 'private',
      media: { processing: 'kept' },
    });
    expect(await spoolLeftNothing(svc, before)).toBe(true);
  });

  it("hostile and broken videos read from the instance's copy are still refused at the end, nothing kept", async () => {
    const owner = newUser();
    const corpus = makeVideoCorpus(dir);
    const originals = await objectNames(svc, 'originals/');
    const readBack = vi.spyOn(svc.server.context.data.storage, 'downloadTo');
    const before = await spooled(svc);
    for (const [name, status, code] of [
      ['truncated.mp4', 422, 'FILE_CORRUPT'],
      ['hls-url.mp4', 415, 'MEDIA_EXTERNAL_REFERENCE'],
      ['claims-100000.avi', 422, 'VIDEO_DIMENSIONS_TOO_LARGE'],
    ] as const) {
      const bytes = await readFile(corpus[name] as string);
      const created = await create(svc, owner, bytes.length, { filename: name, title: name });
      const location = created.headers.get('location') as string;
      const last = await sendAll(() => svc, owner, location, bytes, Math.ceil(bytes.length / 2));
      expect([name, last.status, (await last.json()).code]).toEqual([name, status, code]);
    }
    expect(readBack).not.toHaveBeenCalled();
    expect(await tusObjects()).toEqual([]);
    expect(await objectNames(svc, 'originals/')).toEqual(originals);
    expect((await call(svc, owner, 'GET', '/api/files')).body).toEqual([]);
    expect(await svc.server.context.data.owners.slotsHeld(owner)).toBe(0);
    expect(await spoolLeftNothing(svc, before)).toBe(true);
  });

  it('refuses before any byte is stored: over 2 GiB, no length, a document over 10 MB by name, no title', async () => {
    const owner = newUser();
    const cases: [number | undefined, Record<string, string>, number, string][] = [
      [2 * 1024 ** 3 + 1, { filename: 'big.mp4', title: 'big' }, 413, 'MEDIA_TOO_LARGE'],
      [undefined, { filename: 'clip.mp4', title: 'clip' }, 400, 'MALFORMED_REQUEST'],
      [10 * 1024 * 1024 + 1, { filename: 'slides.pdf', title: 'slides' }, 413, 'FILE_TOO_LARGE'],
      [1000, { filename: 'clip.mp4' }, 400, 'FILE_REQUIRED'],
      [1000, { filename: 'clip.mp4', title: 'x', displayDuration: '61' }, 400, 'VALIDATION'],
      [0, { filename: 'clip.mp4', title: 'empty' }, 400, 'FILE_REQUIRED'],
    ];
    for (const [size, fields, status, code] of cases) {
      const r = await create(svc, owner, size, fields);
      const body = await r.json();
      expect([size, r.status, body.code]).toEqual([size, status, code]);
      expect(r.headers.get('location')).toBeNull();
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    // 2 GiB itself is taken
    const at = await create(svc, owner, 2 * 1024 ** 3, { filename: 'long.mov', title: 'long' });
    expect(at.status).toBe(201);
    const location = at.headers.get('location') as string;
    const cancelled = await fetch(`${svc.server.url}${location}`, {
      method: 'DELETE',
      headers: { ...identityHeaders(svc, owner), 'tus-resumable': '1.0.0' },
    });
    expect(cancelled.status).toBe(204);
    expect(await tusObjects()).toEqual([]);
    expect(await openMultipartUploads(owner, location)).toBe(0);
  });

  it("the plan's file limit is checked when the upload starts", async () => {
    const owner = newUser();
    // a trial member's three slots are taken
    for (let i = 0; i < 3; i++) await svc.server.context.data.owners.reserveSlot(owner, `held-${owner}-${i}`);
    const r = await create(svc, owner, 1000, { filename: 'clip.mp4', title: 'one too many' });
    expect([r.status, (await r.json()).code]).toEqual([403, 'FILE_LIMIT_REACHED']);
    expect(await tusObjects()).toEqual([]);
  });

  it("another member's HEAD, PATCH and DELETE of an upload answer 404 and change nothing", async () => {
    const owner = newUser();
    const stranger = newUser();
    const bytes = Buffer.alloc(5000, 7);
    const created = await create(svc, owner, bytes.length, { filename: 'a.mp4', title: 'mine' });
    const location = created.headers.get('location') as string;
    expect((await patch(svc, owner, location, 0, bytes.subarray(0, 1000))).status).toBe(204);

    const peek = await head(svc, stranger, location);
    expect([peek.status, peek.headers.get('upload-offset')]).toEqual([404, null]);
    const write = await patch(svc, stranger, location, 1000, bytes.subarray(1000, 2000));
    expect([write.status, (await write.json()).code]).toEqual([404, 'NOT_FOUND']);
    const drop = await fetch(`${svc.server.url}${location}`, {
      method: 'DELETE',
      headers: { ...identityHeaders(svc, stranger), 'tus-resumable': '1.0.0' },
    });
    expect(drop.status).toBe(404);
    // anonymous: 401
    const anon = await fetch(`${svc.server.url}${location}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(anon.status).toBe(401);

    const mine = await head(svc, owner, location);
    expect([mine.status, mine.headers.get('upload-offset')]).toEqual([200, '1000']);
    // the owner's DELETE removes it all, the chunk short of a whole part included
    expect((await tusObjects()).some((k) => k.endsWith('.part'))).toBe(true);
    const cancelled = await fetch(`${svc.server.url}${location}`, {
      method: 'DELETE',
      headers: { ...identityHeaders(svc, owner), 'tus-resumable': '1.0.0' },
    });
    expect(cancelled.status).toBe(204);
    expect(await tusObjects()).toEqual([]);
    expect(await openMultipartUploads(owner, location)).toBe(0);
  });

  it('a PDF over 10 MB sent as a video is refused from its bytes at the end with FILE_TOO_LARGE, nothing kept', async () => {
    const owner = newUser();
    const originals = await objectNames(svc, 'originals/');
    const pdf = await fileBytes(join(corpus, 'pdf/vertical.pdf'));
    const big = Buffer.alloc(10 * 1024 * 1024 + 4096, 0x20);
    pdf.bytes.copy(big, 0);
    const created = await create(svc, owner, big.length, { filename: 'holiday.mp4', title: 'not a video' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    // a whole 8 MiB part, then the rest: the object is completed by S3 multipart before the bytes are read
    const part = 8 * 1024 * 1024;
    expect((await patch(svc, owner, location, 0, big.subarray(0, part))).status).toBe(204);
    const last = await patch(svc, owner, location, part, big.subarray(part));
    const body = await last.json();
    expect([last.status, body.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect(body.message).toBe('ファイルサイズは10MB以下にしてください');
    expect(await tusObjects()).toEqual([]);
    expect(await openMultipartUploads(owner, location)).toBe(0);
    expect(await objectNames(svc, 'originals/')).toEqual(originals);
    expect((await call(svc, owner, 'GET', '/api/files')).body).toEqual([]);
    expect(await svc.server.context.data.owners.slotsHeld(owner)).toBe(0);
  });

  it('an unfinished upload past its expiry is swept: parts and records removed, the upload gone', async () => {
    const owner = newUser();
    const brief = await startService({
      share: svc,
      settings: { CONVERSION_ROLE: 'api', RESUMABLE_UPLOAD_EXPIRY_MS: 1000 },
    });
    try {
      const created = await create(brief, owner, 20_000, { filename: 'left.webm', title: 'left behind' });
      const location = created.headers.get('location') as string;
      expect((await patch(brief, owner, location, 0, Buffer.alloc(3000, 1))).status).toBe(204);
      expect((await tusObjects()).length).toBeGreaterThan(0);
      expect(await openMultipartUploads(owner, location)).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1200));
      // the expired upload is refused even before the sweep
      expect((await patch(brief, owner, location, 3000, Buffer.alloc(10, 1))).status).toBe(410);
      expect(await expireResumableUploads(brief.server.context)).toBe(1);
      expect(await tusObjects()).toEqual([]);
      expect(await openMultipartUploads(owner, location)).toBe(0);
      expect((await head(svc, owner, location)).status).toBe(404);
    } finally {
      await brief.close();
    }
  });
});

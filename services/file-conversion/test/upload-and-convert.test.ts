import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaCorpus, makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import { pdfWithPages } from './conversion/fixtures';
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
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await destroyService(svc);
});

describe('upload and conversion', () => {
  it('a PDF becomes pages as they finish; the owner can fetch the images, another member gets 404', async () => {
    const owner = newUser();
    const other = newUser();
    const up = await upload(svc, owner, await fileBytes(join(corpus, 'pdf/tracemonkey.pdf')), {
      title: 'TraceMonkey',
      displayDuration: '12',
      tags: 'Research, JIT ,research',
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ title: 'TraceMonkey', kind: 'pdf', status: 'processing', displayDuration: 12 });
    expect(up.body.tags).toEqual(['research', 'jit']);
    const id: string = up.body.id;

    // Pages become playable before the whole file is done.
    const first = await waitFor('first page', async () => {
      const r = await call(svc, owner, 'GET', `/api/files/${id}/pages`);
      return r.body.length > 0 ? r.body : undefined;
    });
    expect(first[0].imagePath).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    // While it converts, the total is already known, so progress reads "N of 14".
    const during = await call(svc, owner, 'GET', `/api/files/${id}`);
    if (during.body.status === 'processing') expect(during.body.pageCount).toBe(14);

    const done = await waitConverted(svc, owner, id);
    expect(done).toMatchObject({ status: 'private', pageCount: 14, pagesReady: 14, statusReason: null });
    expect(done.thumbnailUrl).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);

    const pages = (await call(svc, owner, 'GET', `/api/files/${id}/pages`)).body;
    expect(pages.map((p: { pageNumber: number }) => p.pageNumber)).toEqual([...Array(14).keys()].map((i) => i + 1));
    expect(pages[0]).toMatchObject({ displayDuration: 12, fileId: id });
    expect(pages[0].width).toBeGreaterThan(0);

    const image = await fetch(`${svc.server.url}${pages[0].imagePath}`, { headers: identityHeaders(svc, owner) });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const key = pages[0].imagePath.slice('/media/'.length);
    expect(image.headers.get('etag')).toBe(`"${key}"`);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');

    const thumb = await fetch(`${svc.server.url}${pages[0].thumbPath}`, { headers: identityHeaders(svc, owner) });
    expect(thumb.status).toBe(200);

    const again = await fetch(`${svc.server.url}${pages[0].imagePath}`, {
      headers: { ...identityHeaders(svc, owner), 'if-none-match': `"${key}"` },
    });
    expect(again.status).toBe(304);

    const refused = await fetch(`${svc.server.url}${pages[0].imagePath}`, { headers: identityHeaders(svc, other) });
    expect(refused.status).toBe(404);
    const anonymous = await fetch(`${svc.server.url}${pages[0].imagePath}`);
    expect(anonymous.status).toBe(401);
    expect((await call(svc, other, 'GET', `/api/files/${id}/pages?signage_mode=true`)).status).toBe(404);

    // Stored: the original, and each page's image and thumbnail under their content hash.
    expect(await objectNames(svc, `originals/${id}`)).toEqual([`originals/${id}`]);
    expect((await objectNames(svc, 'pages/')).length).toBeGreaterThanOrEqual(28);

    // The text went to the copyright check.
    const checks = await svc.server.context.data.files.copyrightChecksOf(id);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ checkType: 'text_analysis' });
    const texts = await svc.server.context.data.files.listPages(id);
    expect(texts.map((p) => p.text).join(' ')).toMatch(/trace/i);
  });

  it('a PPTX and a DOCX are converted end to end', async () => {
    const owner = newUser();
    const pptx = await upload(svc, owner, await fileBytes(join(corpus, 'pptx/ph-populated-placeholders.pptx')), {
      title: 'スライド',
    });
    const docx = await upload(svc, owner, await fileBytes(join(corpus, 'docx/tables.docx')), { title: '文書' });
    expect(pptx.status).toBe(200);
    expect(docx.status).toBe(200);
    expect(pptx.body.kind).toBe('pptx');
    expect(docx.body.kind).toBe('docx');
    const [p, d] = await Promise.all([
      waitConverted(svc, owner, pptx.body.id, 120_000),
      waitConverted(svc, owner, docx.body.id, 120_000),
    ]);
    expect(p.status).toBe('private');
    expect(p.pageCount).toBeGreaterThan(0);
    expect(d.status).toBe('private');
    expect(d.pageCount).toBeGreaterThan(0);
    const pages = (await call(svc, owner, 'GET', `/api/files/${d.id}/pages`)).body;
    expect(pages).toHaveLength(d.pageCount);
    const img = await fetch(`${svc.server.url}${pages[0].imagePath}`, { headers: identityHeaders(svc, owner) });
    expect(img.status).toBe(200);
  }, 180_000);

  it('a HEIC photo becomes one page: upright, its dimensions on the file, no metadata in what is served', async () => {
    const owner = newUser();
    const dir = await mkdtemp(join(tmpdir(), 'pagecast-media-'));
    try {
      const media = await makeMediaCorpus(dir);
      const heic = await readFile(media['photo.heic'] as string);
      const up = await upload(
        svc,
        owner,
        { bytes: heic, name: 'IMG_0001.HEIC' },
        { title: 'Menu', displayDuration: '8' },
      );
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ kind: 'image', media: { format: 'heic', width: 320, height: 240 } });
      const done = await waitConverted(svc, owner, up.body.id);
      expect(done).toMatchObject({ status: 'private', pageCount: 1, pagesReady: 1, statusReason: null, kind: 'image' });
      expect(done.thumbnailUrl).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      const pages = (await call(svc, owner, 'GET', `/api/files/${up.body.id}/pages`)).body;
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatchObject({ pageNumber: 1, displayDuration: 8, width: 1920, height: 1440 });
      const res = await fetch(`${svc.server.url}${pages[0].imagePath}`, { headers: identityHeaders(svc, owner) });
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 1920, height: 1440 });
      expect(meta.exif).toBeUndefined();

      // a truncated JPEG passes the header checks at upload, then the decoder refuses it: disabled, FILE_CORRUPT
      const cut = await upload(
        svc,
        owner,
        { bytes: await readFile(media['truncated.jpg'] as string), name: 'cut.jpg' },
        {
          title: 'Cut',
        },
      );
      expect(cut.status).toBe(200);
      const refused = await waitConverted(svc, owner, cut.body.id);
      expect(refused).toMatchObject({ status: 'disabled', statusReason: 'FILE_CORRUPT', pagesReady: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a video is transcoded in the worker: H.264 MP4 stored, its poster as page 1, why and how long on the file', async () => {
    const owner = newUser();
    const dir = await mkdtemp(join(tmpdir(), 'pagecast-video-'));
    try {
      const videos = makeVideoCorpus(dir);
      const up = await upload(
        svc,
        owner,
        { bytes: await readFile(videos['mpeg4.avi'] as string), name: 'clip.avi' },
        { title: 'Clip' },
      );
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({
        kind: 'video',
        media: { format: 'avi', width: 320, height: 240, videoCodec: 'mpeg4', audioCodec: 'pcm_s16le' },
      });
      // the upload's whole probe is kept on the file: the worker starts from it rather than probing again
      const kept = await svc.server.context.data.models.files.findById(up.body.id).lean();
      expect(kept?.sourceProbe).toMatchObject({ container: 'avi', width: 320, height: 240, pixelFormat: 'yuv420p' });
      const done = await waitConverted(svc, owner, up.body.id);
      expect(done).toMatchObject({
        status: 'private',
        pageCount: 1,
        statusReason: null,
        media: {
          format: 'avi',
          width: 320,
          height: 240,
          videoCodec: 'h264',
          audioCodec: 'aac',
          processing: 'transcoded',
          transcodeReasons: ['container'],
        },
      });
      expect(done.media.durationMs).toBeGreaterThan(900);
      expect(done.thumbnailUrl).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      const storage = svc.server.context.data.storage;
      const stored = await storage.getBuffer(`videos/${up.body.id}`);
      expect(stored?.subarray(4, 8).toString('latin1')).toBe('ftyp');
      // played with Range from storage: 206 with the asked bytes, 416 past the end, 404 for anyone else
      expect(done.videoUrl).toBe(`/media/video/${up.body.id}`);
      // the players' page read names the video its poster stands for, with its length (played instead of the page)
      const pages = await call(svc, owner, 'GET', `/api/files/${up.body.id}/pages?signage_mode=true`);
      expect(pages.body).toEqual([
        expect.objectContaining({ pageNumber: 1, video: { url: done.videoUrl, durationMs: done.media.durationMs } }),
      ]);
      const url = `${svc.server.url}${done.videoUrl}`;
      const part = await fetch(url, { headers: { ...identityHeaders(svc, owner), Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${stored?.length}`);
      expect(part.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await part.arrayBuffer())).toEqual(stored?.subarray(100, 200));
      const tail = await fetch(url, { headers: { ...identityHeaders(svc, owner), Range: 'bytes=-10' } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(stored?.subarray(-10));
      const whole = await fetch(url, { headers: identityHeaders(svc, owner) });
      expect([whole.status, whole.headers.get('accept-ranges')]).toEqual([200, 'bytes']);
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(stored);
      const past = await fetch(url, { headers: { ...identityHeaders(svc, owner), Range: 'bytes=99999999-' } });
      expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${stored?.length}`]);
      const stranger = await fetch(url, { headers: { ...identityHeaders(svc, newUser()), Range: 'bytes=0-99' } });
      expect(stranger.status).toBe(404);
      // the marketplace's preview clip is made by the same job once the video plays, stored beside it
      await waitFor('preview clip', () => storage.exists(`videos/${up.body.id}-preview`));
      // deleting the file removes the playable video and its clip too
      expect((await call(svc, owner, 'DELETE', `/api/files/${up.body.id}`)).status).toBe(200);
      expect(await storage.exists(`videos/${up.body.id}`)).toBe(false);
      expect(await storage.exists(`videos/${up.body.id}-preview`)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a file the converter refuses ends disabled with the reason, keeping its slot until deleted', async () => {
    const owner = newUser();
    // 501 pages: a PDF by its bytes, refused by the engine's page limit during conversion.
    const up = await upload(svc, owner, { bytes: pdfWithPages(501), name: 'many.pdf' }, { title: 'Too many' });
    expect(up.status).toBe(200);
    const done = await waitConverted(svc, owner, up.body.id);
    expect(done).toMatchObject({ status: 'disabled', statusReason: 'FILE_TOO_MANY_PAGES', pagesReady: 0 });
    expect((await call(svc, owner, 'GET', `/api/files/${up.body.id}/pages`)).body).toEqual([]);
    expect((await call(svc, owner, 'GET', '/api/dashboard/stats')).body.fileCount).toBe(1);
    expect(await svc.server.context.data.owners.slotsHeld(owner)).toBe(1);
    // cannot be published
    const pub = await call(svc, owner, 'PUT', `/api/files/${up.body.id}/publish`, {
      isPublished: true,
      publishPrice: 3000,
    });
    expect(pub.status).toBe(409);
    expect(pub.body.code).toBe('FILE_NOT_READY');
    expect((await call(svc, owner, 'DELETE', `/api/files/${up.body.id}`)).status).toBe(200);
    expect(await svc.server.context.data.owners.slotsHeld(owner)).toBe(0);
  });
});

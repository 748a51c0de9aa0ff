import { registration } from '@pagecast/service-kit/testing';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  identityHeaders,
  newUser,
  objectNames,
  publishEvent,
  startService,
  type TestService,
  upload,
  waitFor,
} from './helpers';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { makeVideoCorpus, pixelBombPng } from '../../../scripts/media-corpus.mjs';

let svc: TestService;
let pdf: { bytes: Buffer; name: string };
// Uploads here are refused or counted; none needs converting, so this instance runs no workers.
beforeAll(async () => {
  svc = await startService({ settings: { CONVERSION_ROLE: 'api' } });
  pdf = await fileBytes(join(corpus, 'pdf/vertical.pdf'));
});
afterAll(async () => {
  await destroyService(svc);
});

async function nothingStored(userId: string) {
  expect(await objectNames(svc)).toEqual([]);
  expect(await svc.server.context.data.models.files.countDocuments({})).toBe(0);
  expect((await call(svc, userId, 'GET', '/api/files')).body).toEqual([]);
  expect(await svc.server.context.data.owners.slotsHeld(userId)).toBe(0);
}

describe('upload refusals: each rule has its code and message, and nothing is stored', () => {
  it('10 MB + 1 byte, streamed, is refused with 413 FILE_TOO_LARGE', async () => {
    const user = newUser();
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    pdf.bytes.copy(big, 0);
    const r = await upload(svc, user, { bytes: big, name: 'big.pdf' }, { title: 'big' });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'ファイルサイズは10MB以下にしてください' });
    await nothingStored(user);
  });

  it('a file whose bytes are not PDF/PPTX/DOCX nor a photo is refused whatever its name', async () => {
    const user = newUser();
    // a TIFF header: an image format, but not one the upload takes
    const tiff = Buffer.from('49492a0008000000000000000000', 'hex');
    for (const name of ['slides.pdf', 'photo.jpg']) {
      const r = await upload(svc, user, { bytes: tiff, name }, { title: 'fake' });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({
        code: 'FILE_TYPE_UNSUPPORTED',
        message:
          'PDF、PowerPoint (.pptx)、Word (.docx) ファイルと画像（JPEG、PNG、WebP、GIF、HEIC、AVIF）、動画（MP4、MOV、WebM、MKV、AVI）のみアップロード可能です',
      });
    }
    await nothingStored(user);
  });

  it('a photo claiming 100,000 x 100,000 pixels is refused at once from its header: 422 IMAGE_TOO_MANY_PIXELS', async () => {
    const user = newUser();
    const r = await upload(svc, user, { bytes: pixelBombPng(), name: 'bomb.png' }, { title: 'bomb' });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'IMAGE_TOO_MANY_PIXELS',
      message: '画像の画素数が多すぎるため変換できません（4,000万画素まで）',
    });
    await nothingStored(user);
  });

  it('hostile videos are refused at once by ffprobe in the sandbox, with their code, nothing stored', async () => {
    const user = newUser();
    const dir = await mkdtemp(join(tmpdir(), 'pagecast-video-rules-'));
    try {
      const videos = makeVideoCorpus(dir);
      const cases: [string, number, string][] = [
        ['claims-100000.avi', 422, 'VIDEO_DIMENSIONS_TOO_LARGE'],
        ['truncated.mp4', 422, 'FILE_CORRUPT'],
        ['hls-url.mp4', 415, 'MEDIA_EXTERNAL_REFERENCE'],
        ['concat-passwd.mkv', 415, 'MEDIA_EXTERNAL_REFERENCE'],
      ];
      for (const [name, status, code] of cases) {
        const r = await upload(svc, user, { bytes: await readFile(videos[name] as string), name }, { title: name });
        expect([name, r.status, r.body.code]).toEqual([name, status, code]);
      }
      await nothingStored(user);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('missing title or missing file: FILE_REQUIRED', async () => {
    const user = newUser();
    const noTitle = await upload(svc, user, pdf, {});
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ code: 'FILE_REQUIRED', message: 'ファイルとタイトルは必須です' });
    const blank = await upload(svc, user, pdf, { title: '   ' });
    expect(blank.body.code).toBe('FILE_REQUIRED');
    const noFile = await upload(svc, user, undefined, { title: 'x' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.code).toBe('FILE_REQUIRED');
    await nothingStored(user);
  });

  it('display duration 0 and 61 are refused; 1–60 and the default 30 pass the rules', async () => {
    const user = newUser();
    for (const d of ['0', '61', '1.5', 'abc']) {
      const r = await upload(svc, user, pdf, { title: 't', displayDuration: d });
      expect(r.status, d).toBe(400);
      expect(r.body.code).toBe('VALIDATION');
      expect(r.body.message).toBe('表示時間は1〜60秒の間で入力してください');
      expect(r.body.issues[0]).toMatchObject({ path: 'displayDuration', key: 'validation.durationRange60' });
    }
    await nothingStored(user);
  });

  it('a price that is not a plan, or selling without a plan or an author, is refused', async () => {
    const user = newUser();
    const badPrice = await upload(svc, user, pdf, {
      title: 't',
      isPublished: 'true',
      publishPrice: '4000',
      copyrightInfo: JSON.stringify({ authorName: 'A' }),
    });
    expect(badPrice.status).toBe(400);
    expect(badPrice.body.message).toBe('価格プランは3000、5000、10000ポイントのいずれかを選択してください');
    const noPlan = await upload(svc, user, pdf, {
      title: 't',
      isPublished: 'true',
      copyrightInfo: JSON.stringify({ authorName: 'A' }),
    });
    expect(noPlan.body.message).toBe('公開する場合は価格プランを選択してください');
    const noAuthor = await upload(svc, user, pdf, { title: 't', isPublished: 'true', publishPrice: '3000' });
    expect(noAuthor.status).toBe(400);
    expect(noAuthor.body.message).toBe('販売する場合は著作者名が必要です');
    const blankAuthor = await upload(svc, user, pdf, {
      title: 't',
      isPublished: 'true',
      publishPrice: '3000',
      copyrightInfo: JSON.stringify({ authorName: ' ' }),
    });
    expect(blankAuthor.body.message).toBe('販売する場合は著作者名が必要です');
    await nothingStored(user);
  });

  it('tags: 21 tags or a 31-character tag are refused; tags are trimmed, lowercased, de-duplicated', async () => {
    const user = newUser();
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    const r21 = await upload(svc, user, pdf, { title: 't', tags: JSON.stringify(many) });
    expect(r21.status).toBe(400);
    expect(r21.body.message).toBe('タグは20個まで設定できます');
    const long = await upload(svc, user, pdf, { title: 't', tags: JSON.stringify(['a'.repeat(31)]) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('タグは1〜30文字で入力してください');
    await nothingStored(user);
    // 20 tags that normalise to fewer, given as repeated fields
    const ok = await upload(svc, user, pdf, { title: 't', tags: [' Sale ', 'sale', 'NEW', '', 'a'.repeat(30)] });
    expect(ok.status).toBe(200);
    expect(ok.body.tags).toEqual(['sale', 'new', 'a'.repeat(30)]);
  });

  it('anonymous uploads are refused with 401', async () => {
    const form = new FormData();
    form.append('title', 't');
    const r = await fetch(`${svc.server.url}/api/files/upload`, { method: 'POST', body: form });
    expect(r.status).toBe(401);
  });
});

describe('photos', () => {
  it('the kind comes from the bytes, not the name: a JPEG named .pdf is an image, its size as shown recorded', async () => {
    const user = newUser();
    // 400 x 200 stored, EXIF orientation 6: shown 200 x 400
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#c00' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const r = await upload(svc, user, { bytes: jpeg, name: 'slides.pdf' }, { title: 'shop front' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'image', media: { format: 'jpeg', width: 200, height: 400 } });
    const listed = (await call(svc, user, 'GET', '/api/files')).body;
    expect(listed[0]).toMatchObject({
      id: r.body.id,
      kind: 'image',
      media: { format: 'jpeg', width: 200, height: 400 },
    });
    // a document has no media
    const doc = await upload(svc, user, pdf, { title: 'deck' });
    expect(doc.body).toMatchObject({ kind: 'pdf', media: null });
  });

  it('a photo takes a file slot like a document: a trial member stops at 3 files of either kind', async () => {
    const user = newUser();
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    expect((await upload(svc, user, pdf, { title: 'deck' })).status).toBe(200);
    expect((await upload(svc, user, { bytes: png, name: 'a.png' }, { title: 'a' })).status).toBe(200);
    expect((await upload(svc, user, { bytes: png, name: 'b.png' }, { title: 'b' })).status).toBe(200);
    const over = await upload(svc, user, { bytes: png, name: 'c.png' }, { title: 'c' });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('FILE_LIMIT_REACHED');
  });
});

describe('size limit boundary', () => {
  it('exactly 10 MB is accepted by the size rule (a padded real PDF)', async () => {
    const user = newUser();
    // Padding as a PDF comment line right after the header keeps the bytes a PDF with its trailer at the end.
    const header = pdf.bytes.subarray(0, pdf.bytes.indexOf(0x0a) + 1);
    const rest = pdf.bytes.subarray(header.length);
    const pad = Buffer.alloc(10 * 1024 * 1024 - pdf.bytes.length, 0x20);
    pad[0] = 0x25; // '%': a comment line
    pad[pad.length - 1] = 0x0a;
    const exact = Buffer.concat([header, pad, rest]);
    expect(exact.length).toBe(10 * 1024 * 1024);
    const r = await upload(svc, user, { bytes: exact, name: 'exact.pdf' }, { title: 'exact' });
    expect(r.body.code).toBeUndefined();
    expect(r.status).toBe(200);
  });
});

describe('tier file limit', () => {
  it('holds for a trial member under 5 concurrent uploads: 3 stored, 2 refused with FILE_LIMIT_REACHED', async () => {
    const user = newUser();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(svc, user, pdf, { title: `f${i}` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
    for (const r of results.filter((x) => x.status === 403)) {
      expect(r.body).toMatchObject({ code: 'FILE_LIMIT_REACHED' });
    }
    expect((await call(svc, user, 'GET', '/api/files')).body).toHaveLength(3);
    const originals = await objectNames(svc, 'originals/');
    const ids = results.filter((r) => r.status === 200).map((r) => `originals/${r.body.id}`);
    for (const id of ids) expect(originals).toContain(id);
    const stats = (await call(svc, user, 'GET', '/api/dashboard/stats')).body;
    expect(stats).toMatchObject({ fileCount: 3, fileLimit: 3, user: { membershipTier: 'trial' } });
    // a deleted file frees its slot
    expect(
      (await call(svc, user, 'DELETE', `/api/files/${results.find((r) => r.status === 200)?.body.id}`)).status,
    ).toBe(200);
    expect((await upload(svc, user, pdf, { title: 'again' })).status).toBe(200);
    expect((await upload(svc, user, pdf, { title: 'over' })).status).toBe(403);
  });

  it('follows the tier that account and billing announce (standard: 30)', async () => {
    const user = newUser();
    await publishEvent(svc, 'account.user.registered.v1', registration(user, { membershipTier: 'free' }));
    await waitFor('registration applied', async () => {
      const s = (await call(svc, user, 'GET', '/api/dashboard/stats')).body;
      return s.user.membershipTier === 'free' && s.user.points === 300;
    });
    // upgraded later on: a billing of another test on the shared NATS may open this member and announce 'free' just
    // after this is published, and the newer change wins
    await publishEvent(
      svc,
      'billing.membership.changed.v1',
      { userId: user, tier: 'standard', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
      { occurredAt: new Date(Date.now() + 86_400_000) },
    );
    await waitFor('tier applied', async () => {
      const s = (await call(svc, user, 'GET', '/api/dashboard/stats')).body;
      return s.fileLimit === 30 ? s : undefined;
    });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(svc, user, pdf, { title: `s${i}` })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('keeps the newer tier when the registration is read after the upgrade that followed it', async () => {
    // account's and billing's events come through two consumers, in no set order between them
    const user = newUser();
    const registeredAt = new Date(Date.now() - 60_000);
    await publishEvent(
      svc,
      'billing.membership.changed.v1',
      { userId: user, tier: 'creator', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
      { occurredAt: new Date(Date.now() + 86_400_000) },
    );
    await waitFor(
      'upgrade applied',
      async () => (await call(svc, user, 'GET', '/api/dashboard/stats')).body.fileLimit > 3,
    );
    await publishEvent(
      svc,
      'account.user.registered.v1',
      registration(user, { registeredAt: registeredAt.toISOString() }),
    );
    // the registration's points are its trace: once they show, it has been read
    const stats = await waitFor('registration read', async () => {
      const s = (await call(svc, user, 'GET', '/api/dashboard/stats')).body;
      return s.user.points === 300 ? s : undefined;
    });
    expect(stats.user.membershipTier).toBe('creator');
  });
});

describe('identity', () => {
  it('a forged identity header is refused', async () => {
    const r = await fetch(`${svc.server.url}/api/files`, { headers: { 'x-pagecast-identity': 'x.y' } });
    expect(r.status).toBe(401);
    const ok = await fetch(`${svc.server.url}/api/files`, { headers: identityHeaders(svc, newUser()) });
    expect(ok.status).toBe(200);
  });
});

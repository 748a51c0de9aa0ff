import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { VideoAccessAnswer } from '@pagecast/contracts';
import { signDeviceIdentityHeader } from '@pagecast/service-kit';
import { makeVideoCorpus } from '../../../scripts/media-corpus.mjs';
import {
  call,
  corpus,
  destroyService,
  fileBytes,
  identityHeaders,
  type Json,
  newUser,
  publishEvent,
  startService,
  type TestService,
  upload,
  waitConverted,
  waitFor,
} from './helpers';

let svc: TestService;
let fileId: string;
const seller = newUser();
const buyer = newUser();
const stranger = newUser();

/** The gateway's internal check for an image: access and how long it may be remembered, never bytes. */
const accessCheck = async (userId: string | undefined, path: string) => {
  const res = await fetch(`${svc.server.url}/internal/media-access/${path.slice('/media/'.length)}`, {
    headers: userId ? identityHeaders(svc, userId) : {},
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
};

const image = async (userId: string, path: string) => {
  const res = await fetch(`${svc.server.url}${path}`, { headers: identityHeaders(svc, userId) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

beforeAll(async () => {
  svc = await startService();
  const up = await upload(svc, seller, await fileBytes(join(corpus, 'pdf/vertical.pdf')), { title: '販売資料' });
  fileId = up.body.id;
  await waitConverted(svc, seller, fileId);
}, 120_000);
afterAll(async () => {
  await destroyService(svc);
});

describe('previews of a file on sale', () => {
  it('exist only while the file is on sale', async () => {
    expect((await call(svc, stranger, 'GET', `/api/files/${fileId}/preview`)).status).toBe(404);
    expect((await image(stranger, `/api/files/${fileId}/preview/1?size=thumb`)).status).toBe(404);
    const pub = await call(svc, seller, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 3000,
      copyrightInfo: { authorName: 'Seller' },
    });
    expect(pub.status).toBe(200);
    const preview = await call(svc, stranger, 'GET', `/api/files/${fileId}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      fileId,
      pageCount: 3,
      pages: [1, 2, 3].map((n) => ({
        pageNumber: n,
        url: `/api/files/${fileId}/preview/${n}?size=page`,
        thumbUrl: `/api/files/${fileId}/preview/${n}?size=thumb`,
      })),
    });
    expect((await call(svc, undefined, 'GET', `/api/files/${fileId}/preview`)).status).toBe(401);
    expect((await image(stranger, `/api/files/${fileId}/preview/4`)).status).toBe(404);
    expect((await image(stranger, `/api/files/${fileId}/preview/0`)).status).toBe(400);
  });

  it('are small, watermarked, and never the full page; the full page stays closed', async () => {
    const pages: Json[] = (await call(svc, seller, 'GET', `/api/files/${fileId}/pages`)).body;
    const full = await image(seller, pages[0].imagePath);
    expect(full.status).toBe(200);
    const fullMeta = await sharp(full.bytes).metadata();

    const thumb = await image(stranger, `/api/files/${fileId}/preview/1?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const thumbMeta = await sharp(thumb.bytes).metadata();
    expect(Math.max(thumbMeta.width ?? 0, thumbMeta.height ?? 0)).toBeLessThanOrEqual(240);

    const page = await image(stranger, `/api/files/${fileId}/preview/1`);
    const meta = await sharp(page.bytes).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(480);
    expect(meta.width ?? 0).toBeLessThan(fullMeta.width ?? 0);
    expect(page.bytes.equals(full.bytes)).toBe(false);

    // The watermark shows: the preview differs clearly from the same page merely made small.
    const plain = await sharp(full.bytes)
      .resize({ width: meta.width, height: meta.height, fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const marked = await sharp(page.bytes).removeAlpha().raw().toBuffer();
    const red = (px: Buffer) => {
      let n = 0;
      for (let i = 0; i + 2 < px.length; i += 3) {
        if ((px[i] ?? 0) > 150 && (px[i + 1] ?? 255) < 130 && (px[i + 2] ?? 255) < 130) n++;
      }
      return n / (px.length / 3);
    };
    // the red PREVIEW mark covers a visible share of the page, which the plain page does not have
    expect(red(marked)).toBeGreaterThan(0.02);
    expect(red(marked)).toBeGreaterThan(red(plain) * 5 + 0.01);

    // previews open nothing: the full-size image is still refused to a non-buyer
    expect((await image(stranger, pages[0].imagePath)).status).toBe(404);
    // the rendering is kept: a second ask gives the same bytes
    expect((await image(stranger, `/api/files/${fileId}/preview/1`)).bytes.equals(page.bytes)).toBe(true);
  });
});

describe('a photo on sale', () => {
  it('has its one page previewed small and watermarked, like a document page', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const up = await upload(svc, seller, { bytes: photo, name: 'shop.jpg' }, { title: 'Shop front' });
    expect(up.body.kind).toBe('image');
    await waitConverted(svc, seller, up.body.id);
    const pub = await call(svc, seller, 'PUT', `/api/files/${up.body.id}/publish`, {
      isPublished: true,
      publishPrice: 3000,
      copyrightInfo: { authorName: 'Seller' },
    });
    expect(pub.status).toBe(200);
    const preview = await call(svc, stranger, 'GET', `/api/files/${up.body.id}/preview`);
    expect(preview.body).toMatchObject({ fileId: up.body.id, pageCount: 1 });
    const page = await image(stranger, `/api/files/${up.body.id}/preview/1`);
    expect(page.status).toBe(200);
    const { data, info } = await sharp(page.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(480);
    // the photo is plain white: every red pixel is the watermark's
    let red = 0;
    for (let i = 0; i + 2 < data.length; i += 3) {
      if ((data[i] ?? 0) > 150 && (data[i + 1] ?? 255) < 130 && (data[i + 2] ?? 255) < 130) red++;
    }
    expect(red / (data.length / 3)).toBeGreaterThan(0.02);
    const pages = (await call(svc, seller, 'GET', `/api/files/${up.body.id}/pages`)).body;
    expect((await image(stranger, pages[0].imagePath)).status).toBe(404);
  });
});

describe('a video on sale', () => {
  it('shows a member without a licence its watermarked clip, never the video; a licence opens the video', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagecast-video-sale-'));
    try {
      const videos = makeVideoCorpus(dir);
      const up = await upload(
        svc,
        seller,
        { bytes: await readFile(videos['h264-aac.mp4'] as string), name: 'shop.mp4' },
        { title: 'Shop video' },
      );
      expect(up.body.kind).toBe('video');
      const id = up.body.id as string;
      const done = await waitConverted(svc, seller, id);
      const clipPath = `/media/video/${id}/preview`;
      const videoBuyer = newUser();
      const get = (userId: string | undefined, path: string, range?: string) =>
        fetch(`${svc.server.url}${path}`, {
          headers: { ...(userId ? identityHeaders(svc, userId) : {}), ...(range ? { Range: range } : {}) },
        });
      // not on sale yet: no clip (previews exist only while on sale)
      expect((await get(videoBuyer, clipPath, 'bytes=0-99')).status).toBe(404);
      const pub = await call(svc, seller, 'PUT', `/api/files/${id}/publish`, {
        isPublished: true,
        publishPrice: 3000,
        copyrightInfo: { authorName: 'Seller' },
      });
      expect(pub.status).toBe(200);

      // the clip is made by the conversion job right after the video became playable
      const preview = await waitFor('preview clip', async () => {
        const p = await call(svc, videoBuyer, 'GET', `/api/files/${id}/preview`);
        return p.body.video ? p : undefined;
      });
      expect(preview.status).toBe(200);
      expect(preview.body.video).toEqual({
        url: clipPath,
        posterUrl: `/api/files/${id}/preview/1?size=page`,
        durationMs: done.media.durationMs,
        width: done.media.width,
        height: done.media.height,
      });
      // the full video stays refused to a member without a licence, whatever they ask
      expect((await get(videoBuyer, done.videoUrl, 'bytes=0-99')).status).toBe(404);
      expect((await get(videoBuyer, done.videoUrl)).status).toBe(404);
      const storage = svc.server.context.data.storage;
      const clip = await storage.getBuffer(`videos/${id}-preview`);
      const video = await storage.getBuffer(`videos/${id}`);
      // the gateway's check (it then reads the bytes itself) decides the same: the video refused, the clip allowed
      const videoCheck = (who: string | undefined) => get(who, `/internal/video-access/${id}`);
      const clipCheck = (who: string | undefined) => get(who, `/internal/video-access/${id}/preview`);
      const refused = await videoCheck(videoBuyer);
      expect([refused.status, (await refused.json()).code]).toEqual([404, 'FILE_NOT_FOUND']);
      expect((await videoCheck(undefined)).status).toBe(401);
      expect((await clipCheck(undefined)).status).toBe(401);
      // a display of another owner (its screen plays nothing of the seller's) is refused too
      const display = { deviceId: crypto.randomUUID(), screenId: crypto.randomUUID(), ownerId: videoBuyer };
      const asDisplay = await fetch(`${svc.server.url}/internal/video-access/${id}`, {
        headers: { 'x-pagecast-identity': signDeviceIdentityHeader(display, svc.env.INTERNAL_SECRET ?? '') },
      });
      expect(asDisplay.status).toBe(404);
      const clipAnswer = VideoAccessAnswer.parse(await (await clipCheck(videoBuyer)).json());
      expect(clipAnswer).toMatchObject({ mimeType: 'video/mp4', size: clip?.length, maxAgeMs: 60_000 });
      // the signed read serves the clip's ranges from storage, and nothing but that object
      const ranged = await fetch(clipAnswer.url, { headers: { Range: 'bytes=10-109' } });
      expect([ranged.status, ranged.headers.get('content-range')]).toEqual([206, `bytes 10-109/${clip?.length}`]);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(clip?.subarray(10, 110));
      const otherKey = new URL(clipAnswer.url);
      otherKey.pathname = otherKey.pathname.replace(/-preview$/, '');
      expect((await fetch(otherKey)).status).toBe(403);
      const owners = VideoAccessAnswer.parse(await (await videoCheck(seller)).json());
      // the same version and caching the video route states
      const routes = await get(seller, done.videoUrl, 'bytes=0-0');
      expect(owners).toMatchObject({ size: video?.length, etag: routes.headers.get('etag') as string });
      expect(owners.cacheControl).toBe('private, no-cache');
      expect(owners.maxAgeMs).toBe(60_000);
      // the clip plays with Range, like the video
      expect(clip?.length).toBeGreaterThan(0);
      expect(clip?.equals(video as Buffer)).toBe(false);
      const part = await get(videoBuyer, clipPath, 'bytes=0-99');
      expect(part.status).toBe(206);
      expect(part.headers.get('content-type')).toBe('video/mp4');
      expect(part.headers.get('content-range')).toBe(`bytes 0-99/${clip?.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(clip?.subarray(0, 100));
      const whole = await get(videoBuyer, clipPath);
      expect([whole.status, whole.headers.get('accept-ranges')]).toEqual([200, 'bytes']);
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(clip);
      expect((await get(videoBuyer, clipPath, `bytes=${clip?.length}-`)).status).toBe(416);
      expect((await get(undefined, clipPath)).status).toBe(401);

      // bought: the video itself plays for the buyer
      await publishEvent(svc, 'marketplace.purchase.completed.v1', {
        purchaseId: crypto.randomUUID(),
        buyerId: videoBuyer,
        fileId: id,
        sellerId: seller,
        price: 3000,
        sellerNet: 2000,
        expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
      });
      await waitFor('licence', async () => (await get(videoBuyer, done.videoUrl, 'bytes=0-99')).status === 206);
      const bought = await get(videoBuyer, done.videoUrl, 'bytes=0-99');
      expect(Buffer.from(await bought.arrayBuffer())).toEqual(video?.subarray(0, 100));
      // the gateway's check opens too, kept by the gateway no longer than a licence's answer may be
      const licensed = VideoAccessAnswer.parse(await (await videoCheck(videoBuyer)).json());
      expect(licensed.maxAgeMs).toBeLessThanOrEqual(3_000);
      const read = await fetch(licensed.url, { headers: { Range: `bytes=${(video?.length ?? 0) - 50}-` } });
      expect(Buffer.from(await read.arrayBuffer())).toEqual(video?.subarray(-50));

      // a licence that ends: the check refuses once it has (and was never to be kept past its end)
      const shortBuyer = newUser();
      const endsAt = Date.now() + 4_000;
      await publishEvent(svc, 'marketplace.purchase.completed.v1', {
        purchaseId: crypto.randomUUID(),
        buyerId: shortBuyer,
        fileId: id,
        sellerId: seller,
        price: 3000,
        sellerNet: 2000,
        expiresAt: new Date(endsAt).toISOString(),
      });
      const short = await waitFor('short licence', async () => {
        const r = await videoCheck(shortBuyer);
        return r.status === 200 ? VideoAccessAnswer.parse(await r.json()) : undefined;
      });
      expect(short.maxAgeMs).toBeLessThanOrEqual(Math.max(0, endsAt - Date.now()) + 50);
      await new Promise((r) => setTimeout(r, Math.max(0, endsAt - Date.now()) + 100));
      expect((await videoCheck(shortBuyer)).status).toBe(404);

      // off sale: the clip closes with the previews
      await call(svc, seller, 'PUT', `/api/files/${id}/publish`, { isPublished: false });
      expect((await get(stranger, clipPath, 'bytes=0-99')).status).toBe(404);
      expect((await clipCheck(stranger)).status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('licences from the marketplace', () => {
  it('let the buyer play until the licence ends, count as purchasers and as the seller’s sales', async () => {
    const pages: Json[] = (await call(svc, seller, 'GET', `/api/files/${fileId}/pages`)).body;
    const purchaseId = crypto.randomUUID();
    const purchase = {
      purchaseId,
      buyerId: buyer,
      fileId,
      sellerId: seller,
      price: 3000,
      sellerNet: 2000,
      expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    };
    await publishEvent(svc, 'marketplace.purchase.completed.v1', purchase);
    await waitFor('licence', async () => (await call(svc, buyer, 'GET', '/api/files/accessible')).body.length === 1);
    const img = await image(buyer, pages[1].imagePath);
    expect(img.status).toBe(200);
    // the buyer's browser asks again every time, so an ended licence stops the image there too
    expect(img.headers.get('cache-control')).toBe('private, no-cache');
    expect((await image(seller, pages[1].imagePath)).headers.get('cache-control')).toContain('immutable');
    // the gateway's check answers the same decision without bytes, with how long it may be remembered
    const buyerCheck = await accessCheck(buyer, pages[1].imagePath);
    expect(buyerCheck).toMatchObject({ status: 200, body: { access: 'licence' } });
    expect(buyerCheck.type).toContain('application/json');
    expect(buyerCheck.body.maxAgeMs).toBeGreaterThan(0);
    expect(buyerCheck.body.maxAgeMs).toBeLessThanOrEqual(3_000);
    const sellerCheck = await accessCheck(seller, pages[1].imagePath);
    expect(sellerCheck.body.access).toBe('owner');
    expect(sellerCheck.body.maxAgeMs).toBeGreaterThan(3_000);
    expect(sellerCheck.body.maxAgeMs).toBeLessThanOrEqual(60_000);
    const strangerCheck = await accessCheck(stranger, pages[1].imagePath);
    expect(strangerCheck.body.access).toBeNull();
    expect(strangerCheck.body.maxAgeMs).toBeLessThanOrEqual(2_000);
    expect((await accessCheck(seller, '/media/not-an-image.webp')).body.access).toBeNull();
    expect((await accessCheck(undefined, pages[1].imagePath)).status).toBe(401);
    expect((await call(svc, seller, 'GET', `/api/files/${fileId}/purchasers`)).body).toEqual({
      hasActivePurchasers: true,
      activePurchaserCount: 1,
    });
    const mine = (await call(svc, seller, 'GET', '/api/files')).body.find((f: Json) => f.id === fileId);
    expect(mine).toMatchObject({ copiesSold: 1, pointsEarned: 2000 });

    // The marketplace's (test-moved) clock ends the licence "30 days later": here it ends now, within seconds,
    // although the image was just served (the access cache keeps a licence's yes for 3 s at most).
    await publishEvent(svc, 'marketplace.licence.expired.v1', {
      purchaseId,
      buyerId: buyer,
      fileId,
      expiredAt: purchase.expiresAt,
    });
    const expiredSent = Date.now();
    await waitFor(
      'accessible list empty',
      async () => (await call(svc, buyer, 'GET', '/api/files/accessible')).body.length === 0,
    );
    // once the end is stored, a snapshot of the file goes out (the outbox relays it): open players refetch and get 404
    const snapshot = await waitFor('file snapshot after the expiry', async () =>
      (
        await svc.server.context.outbox.entries({
          subject: 'files.file.updated.v1',
          occurredAt: { $gte: new Date(expiredSent) },
        })
      ).find((e) => (e.data as { fileId: string }).fileId === fileId && e.sentAt),
    );
    expect(snapshot.sentAt).toBeTruthy(); // relayed to NATS, where the gateway forwards it to open players
    const started = Date.now();
    await waitFor('image refused', async () => (await image(buyer, pages[1].imagePath)).status === 404, 10_000, 200);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await accessCheck(buyer, pages[1].imagePath)).body.access).toBeNull();
    expect((await call(svc, buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status).toBe(404);
    expect((await call(svc, seller, 'GET', `/api/files/${fileId}/purchasers`)).body.activePurchaserCount).toBe(0);

    // A redelivered purchase event does not bring the licence back; the sale still counts.
    await publishEvent(svc, 'marketplace.purchase.completed.v1', purchase);
    const marker = crypto.randomUUID();
    await publishEvent(svc, 'marketplace.purchase.completed.v1', {
      ...purchase,
      purchaseId: marker,
      buyerId: stranger,
    });
    await waitFor('marker', async () => (await call(svc, stranger, 'GET', '/api/files/accessible')).body.length === 1);
    expect((await call(svc, buyer, 'GET', '/api/files/accessible')).body).toEqual([]);
    const after = (await call(svc, seller, 'GET', '/api/files')).body.find((f: Json) => f.id === fileId);
    expect(after).toMatchObject({ copiesSold: 2, pointsEarned: 4000 });
  });

  it('unpublishing closes the previews but not an active licence', async () => {
    await call(svc, seller, 'PUT', `/api/files/${fileId}/publish`, { isPublished: false });
    expect((await call(svc, stranger, 'GET', `/api/files/${fileId}/preview`)).status).toBe(404);
    expect((await call(svc, stranger, 'GET', `/api/files/${fileId}?signage_mode=true`)).status).toBe(200);
  });
});

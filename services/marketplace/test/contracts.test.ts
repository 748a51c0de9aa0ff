import { readFile } from 'node:fs/promises';
import { FileSummary, FilePreview, MarketplacePage, PurchasersResponse, PurchaseResponse } from '@pagecast/contracts';
import { registration, testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  destroyMarketplace,
  identityHeaders,
  type Json,
  publishEvent,
  type TestService,
  startMarketplace,
  waitFor,
} from './helpers';
import { balanceOf, billingEnv, type ServiceProcess, spawnService } from './processes';

// The three services as they run, each speaking only through packages/contracts: file-conversion's file events
// build the marketplace's listings, the marketplace's purchase goes through billing's transfer call, and its
// purchase and expiry events open and close the file in file-conversion. Every answer is parsed with the contracts.

const corpus = process.env.PAGECAST_CORPUS ?? '/work/shared/corpus';
let files: ServiceProcess;
let billing: ServiceProcess;
let market: TestService;
const seller = uniqueName('c-seller');
const buyer = uniqueName('c-buyer');
let fileId = '';

const as = (userId: string) => identityHeaders(market, userId);
const filesCall = async (userId: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${files.url}${path}`, {
    method,
    headers: { ...as(userId), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
};
const listed = async (tag: string) =>
  MarketplacePage.parse((await call(market, buyer, 'GET', `/api/marketplace?tags=${tag}`)).body);

beforeAll(async () => {
  const env = testEnv() as unknown as Record<string, string>;
  files = await spawnService('file-conversion', {
    ...env,
    MONGO_DB: uniqueName('fc_contract').replace(/-/g, '_'),
    S3_BUCKET: uniqueName('fc-contract'),
    CONSUMER_PREFIX: uniqueName('fc-contract'),
    CONVERSION_QUEUE: uniqueName('fcq'),
    EVENTS_DELIVER: 'new',
  });
  billing = await spawnService('billing', billingEnv());
  market = await startMarketplace({ env: { BILLING_URL: billing.url } });
  await publishEvent(
    market,
    'account.user.registered.v1',
    registration(buyer, { points: 8000, registeredAt: new Date(Date.now() - 60_000).toISOString() }),
  );
  await waitFor('buyer opened', async () => (await balanceOf(billing.url, buyer).catch(() => -1)) === 8000);
}, 120_000);
afterAll(async () => {
  await files?.dispose();
  await billing?.dispose();
  await destroyMarketplace(market);
});

describe('marketplace, billing and file-conversion through the contracts', () => {
  const tag = uniqueName('ct').slice(-16);

  it('a file published in file-conversion is listed by the marketplace with its preview', async () => {
    const form = new FormData();
    form.append('pdf', new Blob([new Uint8Array(await readFile(`${corpus}/pdf/vertical.pdf`))]), 'vertical.pdf');
    form.append('title', '契約試験の資料');
    form.append('tags', JSON.stringify([tag, '契約']));
    const up = await fetch(`${files.url}/api/files/upload`, { method: 'POST', headers: as(seller), body: form });
    expect(up.status).toBe(200);
    fileId = ((await up.json()) as Json).id;
    await waitFor(
      'converted',
      async () => (await filesCall(seller, 'GET', `/api/files/${fileId}`)).body?.status === 'private',
      90_000,
      300,
    );
    const pub = await filesCall(seller, 'PUT', `/api/files/${fileId}/publish`, {
      isPublished: true,
      publishPrice: 5000,
      copyrightInfo: { authorName: 'Ada', companyName: 'Lovelace Ltd', copyrightText: '© 2026 Lovelace Ltd' },
    });
    expect(pub.status).toBe(200);

    // listed, with the rights: the publish event carries them, and the conversion's own file events (which may land
    // first and list the file) carry none, so the listing takes them when the publish event is applied
    const page = await waitFor('listed with its copyright', async () => {
      const p = await listed(tag);
      return p.files[0]?.copyright ? p : undefined;
    });
    // a buyer is told who holds the rights
    expect(page.files[0]?.copyright).toEqual({
      authorName: 'Ada',
      companyName: 'Lovelace Ltd',
      copyrightText: '© 2026 Lovelace Ltd',
    });
    expect(page.files[0]).toMatchObject({
      id: fileId,
      title: '契約試験の資料',
      publishPrice: 5000,
      pageCount: 3,
      sellerId: seller,
    });
    expect(page.files[0]?.tags.sort()).toEqual([tag, '契約'].sort());
    // the card's thumbnail and the preview are served by file-conversion at the URLs the listing gives
    const thumb = await fetch(`${files.url}${page.files[0]?.thumbnailUrl}`, { headers: as(buyer) });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const preview = FilePreview.parse((await filesCall(buyer, 'GET', page.files[0]?.previewUrl ?? '')).body);
    expect(preview.pages).toHaveLength(3);
  }, 120_000);

  it('a purchase moves the points through billing and opens the file in file-conversion; expiry closes it', async () => {
    const bought = await call(market, buyer, 'POST', `/api/marketplace/purchase/${fileId}`, { expectedPrice: 5000 });
    expect(bought.status).toBe(200);
    expect(PurchaseResponse.parse(bought.body)).toMatchObject({ pointsSpent: 5000, balance: 3000 });
    expect(await balanceOf(billing.url, seller)).toBe(3500);

    await waitFor(
      'licence in file-conversion',
      async () => (await filesCall(buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status === 200,
    );
    expect(PurchasersResponse.parse((await filesCall(seller, 'GET', `/api/files/${fileId}/purchasers`)).body)).toEqual({
      hasActivePurchasers: true,
      activePurchaserCount: 1,
    });
    const mine = (await filesCall(seller, 'GET', '/api/files')).body.map((f: unknown) => FileSummary.parse(f));
    expect(mine.find((f: FileSummary) => f.id === fileId)).toMatchObject({ copiesSold: 1, pointsEarned: 3500 });

    const moved = await call(market, undefined, 'POST', '/internal/test/clock', { ms: 30 * 86400_000 + 60_000 });
    expect(moved.body.expired).toBe(1);
    await waitFor(
      'licence closed',
      async () => (await filesCall(buyer, 'GET', `/api/files/${fileId}?signage_mode=true`)).status === 404,
      15_000,
    );
    expect((await filesCall(buyer, 'GET', '/api/files/accessible')).body).toEqual([]);
    expect((await filesCall(seller, 'GET', `/api/files/${fileId}/purchasers`)).body.activePurchaserCount).toBe(0);
  }, 60_000);

  it('unpublishing and deleting in file-conversion take the listing away', async () => {
    await filesCall(seller, 'PUT', `/api/files/${fileId}/publish`, { isPublished: false });
    await waitFor('unlisted', async () => (await listed(tag)).files.length === 0);
    await filesCall(seller, 'PUT', `/api/files/${fileId}/publish`, { isPublished: true, publishPrice: 3000 });
    await waitFor('listed again', async () => (await listed(tag)).files[0]?.publishPrice === 3000);
    // published again without restating them: the rights recorded for the file stay on the listing
    expect((await listed(tag)).files[0]?.copyright?.authorName).toBe('Ada');
    expect((await filesCall(seller, 'DELETE', `/api/files/${fileId}`)).status).toBe(200);
    await waitFor('deleted', async () => (await market.server.context.data.listings.get(fileId))?.deleted === true);
    expect((await listed(tag)).files).toEqual([]);
    const gone = await call(market, buyer, 'POST', `/api/marketplace/purchase/${fileId}`, { expectedPrice: 3000 });
    expect(gone.body.code).toBe('LISTING_NOT_FOUND');
  }, 60_000);
});

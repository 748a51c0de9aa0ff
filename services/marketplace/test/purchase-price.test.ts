// A purchase is made at the price the buyer saw and confirmed, or not at all: the seller's new price between the
// buyer's view and the buyer's confirmation is answered 409 PRICE_CHANGED with the current price, and nothing moves.
// Billing runs as a process against the test servers; the listings come from file-conversion's events.
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  type Json,
  listingEvent,
  nextTime,
  publishEvent,
  publishListings,
  type TestService,
  waitForRead,
} from './helpers';
import { balanceOf, type ServiceProcess, startWithBilling, type WithBilling } from './processes';

let stack: WithBilling;
let billing: ServiceProcess;
let svc: TestService;
const run = uniqueName('price').slice(-20);
const seller = uniqueName('seller');
const buyer = uniqueName('buyer');
const listing = listingEvent({ ownerId: seller, title: '値上げされる資料', tags: [run], publishPrice: 3000 });

const register = (userId: string, points: number) => stack.register(userId, points);

const buy = (body?: unknown) => call(svc, buyer, 'POST', `/api/marketplace/purchase/${listing.fileId}`, body);
/** The listing as the buyer sees it in the marketplace. */
const seen = async (): Promise<Json | undefined> =>
  (await call(svc, buyer, 'GET', `/api/marketplace?tags=${run}`)).body.files.find((f: Json) => f.id === listing.fileId);
/** What a refusal must leave as it was: the three balances, the purchases, the licences and the announcements. */
const books = async () => ({
  buyer: await balanceOf(billing.url, buyer),
  seller: await balanceOf(billing.url, seller),
  platform: await balanceOf(billing.url, 'platform').catch(() => 0),
  purchases: await svc.server.context.data.models.purchases.countDocuments({ buyerId: buyer }),
  licences: await svc.server.context.data.models.licences.countDocuments({ buyerId: buyer }),
  announced: (await svc.server.context.outbox.entries({ subject: 'marketplace.purchase.completed.v1' })).length,
});

beforeAll(async () => {
  stack = await startWithBilling();
  ({ billing, svc } = stack);
  await register(seller, 0);
  await register(buyer, 20_000);
  await publishListings(svc, [listing]);
}, 120_000);
afterAll(async () => {
  await stack.close();
});

describe('a purchase at the price the buyer confirmed', () => {
  it('without a confirmed price, or with one that is no price, is refused as VALIDATION, and nothing moves', async () => {
    const before = await books();
    for (const body of [
      undefined,
      {},
      { expectedPrice: null },
      { expectedPrice: '3000' },
      { expectedPrice: 3000.5 },
      { expectedPrice: -3000 },
      { expectedPrice: 0 },
    ]) {
      const r = await buy(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code, JSON.stringify(body)).toBe('VALIDATION');
      expect(
        r.body.issues.map((i: Json) => i.path),
        JSON.stringify(body),
      ).toEqual(['expectedPrice']);
    }
    expect(await books()).toEqual(before);
  });

  it('when the seller changed the price after the buyer saw it, is refused 409 PRICE_CHANGED with the new price, and nothing moves', async () => {
    expect(await seen()).toMatchObject({ publishPrice: 3000 });
    // the seller publishes again at 10,000 (file-conversion's event); the marketplace now sells at that price
    await publishEvent(svc, 'files.file.published.v1', { ...listing, publishPrice: 10000, updatedAt: nextTime() });
    await waitForRead(svc, 'the new price listed', async () => (await seen())?.publishPrice === 10000);
    const before = await books();
    expect(before).toMatchObject({ buyer: 20_000, seller: 0, purchases: 0, licences: 0 });

    const r = await buy({ expectedPrice: 3000 });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'PRICE_CHANGED', details: { price: 10000 } });
    expect(await books()).toEqual(before);
    expect(await seen()).toMatchObject({ publishPrice: 10000, purchased: false });
  });

  it('confirmed again at the new price, is made at that price: the buyer pays it, the seller earns its net', async () => {
    const platformBefore = (await books()).platform;
    const r = await buy({ expectedPrice: 10000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fileId: listing.fileId, pointsSpent: 10000, balance: 10_000 });
    expect(await books()).toEqual({
      buyer: 10_000,
      seller: 7000,
      platform: platformBefore + 3000,
      purchases: 1,
      licences: 1,
      announced: 1,
    });
    const licence = await svc.server.context.data.purchases.getLicence(r.body.purchaseId);
    expect(licence).toMatchObject({ buyerId: buyer, pointsSpent: 10000 });
    expect(await seen()).toMatchObject({ purchased: true });
  });
});

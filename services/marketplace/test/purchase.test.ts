import { parseEvent } from '@pagecast/contracts';
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, listingEvent, publishListings, type TestService } from './helpers';
import { balanceOf, type ServiceProcess, startWithBilling, type WithBilling } from './processes';

let stack: WithBilling;
let billing: ServiceProcess;
let svc: TestService;
const run = uniqueName('run').slice(-20);
const seller = uniqueName('seller');
const rich = uniqueName('rich');
const poor = uniqueName('poor');
const listing = listingEvent({ ownerId: seller, title: '期限のある資料', tags: [run], publishPrice: 3000 });

const register = (userId: string, points: number) => stack.register(userId, points);

const buy = (userId: string, fileId = listing.fileId, expectedPrice = listing.publishPrice) =>
  call(svc, userId, 'POST', `/api/marketplace/purchase/${fileId}`, { expectedPrice });
const marked = async (userId: string) =>
  (await call(svc, userId, 'GET', `/api/marketplace?tags=${run}`)).body.files.find(
    (f: Json) => f.id === listing.fileId,
  );
const outboxOf = (type: string) => svc.server.context.outbox.entries({ subject: type });

beforeAll(async () => {
  stack = await startWithBilling();
  ({ billing, svc } = stack);
  await register(seller, 0).catch(() => undefined);
  await register(rich, 20_000);
  await register(poor, 300);
  await publishListings(svc, [listing]);
}, 120_000);
afterAll(async () => {
  await stack.close();
});

describe('a purchase', () => {
  it('moves the price once (seller earns the net, the platform the fee), records a 30-day licence and announces it', async () => {
    const before = Date.now();
    const r = await buy(rich);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fileId: listing.fileId, pointsSpent: 3000, balance: 17_000 });
    // fields only, no sentence: the page words the success in its own language
    expect(Object.keys(r.body).sort()).toEqual(['balance', 'expiresAt', 'fileId', 'pointsSpent', 'purchaseId']);
    const expires = Date.parse(r.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 86400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 86400_000 + 1000);
    expect(await balanceOf(billing.url, rich)).toBe(17_000);
    expect(await balanceOf(billing.url, seller)).toBe(2000);

    const licence = await svc.server.context.data.purchases.getLicence(r.body.purchaseId);
    expect(licence).toMatchObject({ buyerId: rich, fileId: listing.fileId, sellerId: seller, pointsSpent: 3000 });
    const [event] = await outboxOf('marketplace.purchase.completed.v1');
    expect(event?.sentAt).toBeTruthy();
    const parsed = parseEvent({
      id: event?._id,
      type: event?.subject,
      occurredAt: event?.occurredAt.toISOString(),
      data: event?.data,
    });
    expect(parsed.data).toMatchObject({
      purchaseId: r.body.purchaseId,
      buyerId: rich,
      sellerId: seller,
      price: 3000,
      sellerNet: 2000,
      expiresAt: r.body.expiresAt,
    });
    expect(await marked(rich)).toMatchObject({ purchased: true, isOwn: false });
    expect(await marked(poor)).toMatchObject({ purchased: false });
  });

  it('is refused while the licence lasts, and nothing more is charged', async () => {
    const r = await buy(rich);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('ALREADY_PURCHASED');
    expect(await balanceOf(billing.url, rich)).toBe(17_000);
  });

  it('is refused when points are short (billing says so), and nothing moves', async () => {
    const r = await buy(poor);
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ code: 'INSUFFICIENT_POINTS' });
    expect(await balanceOf(billing.url, poor)).toBe(300);
    expect(await svc.server.context.data.purchases.holdsActive(poor, listing.fileId, new Date())).toBe(false);
    expect(await balanceOf(billing.url, seller)).toBe(2000);
  });

  it('from two tabs at once charges once', async () => {
    const member = uniqueName('tabs');
    await register(member, 5000);
    const answers = await Promise.all(Array.from({ length: 4 }, () => buy(member)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'ALREADY_PURCHASED')).toBe(true);
    expect(await balanceOf(billing.url, member)).toBe(2000);
    expect(await svc.server.context.data.models.licences.countDocuments({ buyerId: member })).toBe(1);
    expect(await balanceOf(billing.url, seller)).toBe(4000);
  });
});

describe('a licence', () => {
  it('ends 30 days later (the clock moved in the test), is announced once, and the member may buy again', async () => {
    const licensed = await svc.server.context.data.purchases.activeFileIds(rich, [listing.fileId], new Date());
    expect(licensed.has(listing.fileId)).toBe(true);
    // 29 days: still running
    let moved = await call(svc, undefined, 'POST', '/internal/test/clock', { ms: 29 * 86400_000 });
    expect(moved.body.expired).toBe(0);
    expect((await buy(rich)).body.code).toBe('ALREADY_PURCHASED');
    moved = await call(svc, undefined, 'POST', '/internal/test/clock', { ms: 86400_000 + 60_000 });
    expect(moved.status).toBe(200);
    expect(moved.body.expired).toBeGreaterThanOrEqual(1);
    const ended = (await outboxOf('marketplace.licence.expired.v1')).map((e) => e.data as Json);
    expect(ended.filter((d) => d.buyerId === rich)).toHaveLength(1);
    expect(ended.find((d) => d.buyerId === rich)).toMatchObject({ fileId: listing.fileId });
    // a second pass announces nothing again
    expect((await call(svc, undefined, 'POST', '/internal/test/clock', { ms: 0 })).body.expired).toBe(0);
    expect(await marked(rich)).toMatchObject({ purchased: false });

    const again = await buy(rich);
    expect(again.status).toBe(200);
    expect(await balanceOf(billing.url, rich)).toBe(14_000);
    expect(await marked(rich)).toMatchObject({ purchased: true });
  });
});

// The workspace buys and its owner pays: an admin acting in someone else's workspace buys a licence with the owner's
// points, and the licence is the workspace's; an editor or a viewer may not spend them (403 FORBIDDEN_ROLE), and
// nothing is charged or recorded when refused.
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, listingEvent, publishListings, type TestService } from './helpers';
import { balanceOf, type ServiceProcess, startWithBilling, type WithBilling } from './processes';

let stack: WithBilling;
let billing: ServiceProcess;
let svc: TestService;
const run = uniqueName('run').slice(-20);
const seller = uniqueName('seller');
const owner = uniqueName('owner');
const adminId = uniqueName('admin');
const listing = listingEvent({ ownerId: seller, title: 'チームの資料', tags: [run], publishPrice: 3000 });
const inWorkspace = (userId: string, role: 'admin' | 'editor' | 'viewer') => ({ userId, workspaceId: owner, role });

const buy = (who: Parameters<typeof call>[1]) =>
  call(svc, who, 'POST', `/api/marketplace/purchase/${listing.fileId}`, { expectedPrice: listing.publishPrice });
const marked = async (who: Parameters<typeof call>[1]) =>
  (await call(svc, who, 'GET', `/api/marketplace?tags=${run}`)).body.files.find((f: Json) => f.id === listing.fileId);

beforeAll(async () => {
  stack = await startWithBilling();
  ({ billing, svc } = stack);
  await stack.register(seller, 0).catch(() => undefined);
  await stack.register(owner, 20_000);
  await stack.register(adminId, 20_000);
  await publishListings(svc, [listing]);
}, 120_000);
afterAll(async () => {
  await stack.close();
});

describe('buying for a workspace', () => {
  it('an editor or a viewer may not buy: 403 FORBIDDEN_ROLE, nothing charged, no licence', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const r = await buy(inWorkspace(uniqueName(role), role));
      expect({ status: r.status, code: r.body.code }, role).toEqual({ status: 403, code: 'FORBIDDEN_ROLE' });
    }
    expect(await balanceOf(billing.url, owner)).toBe(20_000);
    expect(await svc.server.context.outbox.entries({ subject: 'marketplace.purchase.completed.v1' })).toEqual([]);
    expect(await marked(owner)).toMatchObject({ purchased: false });
  });

  it("an admin buys with the owner's points; the licence is the workspace's, the admin's own points stay", async () => {
    const r = await buy(inWorkspace(adminId, 'admin'));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await balanceOf(billing.url, owner)).toBe(17_000);
    expect(await balanceOf(billing.url, adminId)).toBe(20_000);
    const licence = await svc.server.context.data.purchases.getLicence(r.body.purchaseId);
    expect(licence).toMatchObject({ buyerId: owner, fileId: listing.fileId });
    // the workspace holds it: its members see it bought, the admin's own workspace does not
    expect(await marked(inWorkspace(adminId, 'viewer'))).toMatchObject({ purchased: true });
    expect(await marked(owner)).toMatchObject({ purchased: true });
    expect(await marked(adminId)).toMatchObject({ purchased: false });
  });
});

// Audit entries of a marketplace purchase, against the service with billing running as a process: the buyer's
// workspace gets `licence.bought` (the member who bought, their address, the points spent), the seller's `sale.completed`
// (actor system:marketplace: the buyer is not named to the seller; price, net and fee as numbers); a refused purchase
// none, and the purchase settled again (the sweeper after a crash) chains nothing twice.
import { AUDIT_SYSTEM_ACTORS, AuditEntry, subjects } from '@pagecast/contracts';
import { callService, clientAddressHeaders, uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlePurchase } from '../src/use-cases/settle-purchase';
import { listingEvent, publishListings, type TestService } from './helpers';
import { startWithBilling, type WithBilling } from './processes';

let stack: WithBilling;
let svc: TestService;
const run = uniqueName('run').slice(-20);
const seller = uniqueName('seller');
const buyer = uniqueName('buyer');
const listing = listingEvent({ ownerId: seller, title: '監査の資料', tags: [run], publishPrice: 3000 });
const ADDRESS = '192.0.2.71';

beforeAll(async () => {
  stack = await startWithBilling();
  svc = stack.svc;
  await stack.register(seller, 0).catch(() => undefined);
  await stack.register(buyer, 20_000);
  await publishListings(svc, [listing]);
}, 120_000);
afterAll(async () => {
  await stack.close();
});

const buy = () =>
  callService(
    svc.server.url,
    svc.env.INTERNAL_SECRET ?? '',
    { userId: buyer },
    'POST',
    `/api/marketplace/purchase/${listing.fileId}`,
    { expectedPrice: listing.publishPrice },
    clientAddressHeaders(ADDRESS, svc.env.INTERNAL_SECRET ?? ''),
  );

async function entries(): Promise<AuditEntry[]> {
  const all = await svc.server.context.outbox.entries({ subject: subjects.auditMarketplace });
  return all.map((e) => AuditEntry.parse(e.data)).filter((e) => e.workspaceId === buyer || e.workspaceId === seller);
}

describe('audit entries of a purchase', () => {
  it('one licence.bought for the buyer and one sale.completed for the seller; a refused or settled-again purchase none', async () => {
    const r = await buy();
    expect(r.status).toBe(200);
    const purchaseId = (r.body as { purchaseId: string }).purchaseId;
    const expiresAt = (r.body as { expiresAt: string }).expiresAt;
    expect((await buy()).status).toBe(409); // the licence lasts: refused

    // settled again, as the sweeper does for a purchase a crash left pending after its entries
    const purchase = await svc.server.context.data.purchases.get(purchaseId);
    if (!purchase) throw new Error('no purchase');
    expect((await settlePurchase(svc.server.context, purchase, { mode: 'ask' })).state).toBe('completed');

    const all = await entries();
    expect(all.map((e) => e.action).sort()).toEqual(['licence.bought', 'sale.completed']);
    expect(all.find((e) => e.action === 'licence.bought')).toMatchObject({
      workspaceId: buyer,
      actorUserId: buyer,
      address: ADDRESS,
      object: { type: 'licence', id: purchaseId },
      before: null,
      after: { fileId: listing.fileId, title: '監査の資料', pointsSpent: 3000, expiresAt },
    });
    const sale = all.find((e) => e.action === 'sale.completed');
    expect(sale).toMatchObject({
      workspaceId: seller,
      actorUserId: AUDIT_SYSTEM_ACTORS.marketplace,
      address: '',
      object: { type: 'sale', id: purchaseId },
      before: null,
      after: { fileId: listing.fileId, price: 3000, sellerNet: 2000, platformFee: 1000 },
    });
    // nothing in the seller's entry names the buyer
    expect(JSON.stringify(sale)).not.toContain(buyer);
  });
});

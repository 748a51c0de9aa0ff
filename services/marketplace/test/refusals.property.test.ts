// A refused call changes nothing: calls that the caller's role may not make in a workspace (drawn over every
// marketplace route a role is refused: buying with the owner's points, and any call of a forged 'owner'; a real
// listing's id or a random one, valid or random bodies) are each answered 403 FORBIDDEN_ROLE, and afterwards every
// collection, the events and the mails are as they were (service-kit's refusal-property).
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { uniqueName } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyMarketplace, listingEvent, publishListings, startMarketplace, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startMarketplace();
});
afterAll(async () => {
  await destroyMarketplace(svc);
});

describe('refused calls', () => {
  it('change nothing: every collection, the events and the mails stay as they were', async () => {
    const owner = uniqueName('owner');
    const listing = listingEvent({ ownerId: uniqueName('seller'), title: 'チームの資料', publishPrice: 3000 });
    await publishListings(svc, [listing]);
    const report = await refusalsChangeNothing({
      service: 'marketplace',
      baseUrl: svc.server.url,
      secret: svc.env.INTERNAL_SECRET ?? '',
      conn: svc.server.context.conn,
      nc: svc.server.context.nats.nc,
      workspaceId: owner,
      ids: [listing.fileId],
      numRuns: 100,
    });
    console.log('[refusals] marketplace', JSON.stringify(report));
    expect(report.runs).toBe(100);
  }, 60_000);
});

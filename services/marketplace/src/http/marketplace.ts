import { MarketplaceQuery, PurchaseParams, PurchaseRequest } from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { purchaseFile } from '../use-cases/purchase-file';
import { searchListings } from '../use-cases/search-listings';

export function marketplaceRouter(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/api/marketplace', async (req, res) => {
    // what the workspace already holds or sells is marked as such
    const { workspaceId } = requireActor(req, 'marketplace.read');
    const query = parseWith(MarketplaceQuery, req.query);
    res.json(await searchListings(ctx, workspaceId, query));
  });

  router.post('/api/marketplace/purchase/:id', async (req, res) => {
    // the workspace buys: its owner pays from their points and holds the licence
    const { workspaceId } = requireActor(req, 'billing.spend');
    const { id } = parseWith(PurchaseParams, req.params);
    // an old client that sends no price is refused (VALIDATION): buying at whatever the price is now is the fault
    const { expectedPrice } = parseWith(PurchaseRequest, req.body ?? {});
    res.json(await purchaseFile(ctx, { buyerId: workspaceId, fileId: id, expectedPrice, actor: auditActor(req) }));
  });

  return router;
}

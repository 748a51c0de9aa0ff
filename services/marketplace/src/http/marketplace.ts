import { MarketplaceQuery, PurchaseParams, PurchaseRequest } from '@pagecast/contracts';
import { parseWith, requireIdentity } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { purchaseFile } from '../use-cases/purchase-file';
import { searchListings } from '../use-cases/search-listings';

export function marketplaceRouter(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/api/marketplace', async (req, res) => {
    const { userId } = requireIdentity(req);
    const query = parseWith(MarketplaceQuery, req.query);
    res.json(await searchListings(ctx, userId, query));
  });

  router.post('/api/marketplace/purchase/:id', async (req, res) => {
    const { userId } = requireIdentity(req);
    const { id } = parseWith(PurchaseParams, req.params);
    // an old client that sends no price is refused (VALIDATION): buying at whatever the price is now is the fault
    const { expectedPrice } = parseWith(PurchaseRequest, req.body ?? {});
    res.json(await purchaseFile(ctx, { buyerId: userId, fileId: id, expectedPrice }));
  });

  return router;
}

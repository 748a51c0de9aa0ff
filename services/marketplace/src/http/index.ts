import { Router } from 'express';
import type { ServiceContext } from '../context';
import { marketplaceRouter } from './marketplace';
import { testClockRouter } from './test-clock';

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const router = Router();
  router.use(marketplaceRouter(context));
  if (context.config.TEST_CLOCK) router.use(testClockRouter(context));
  return router;
}

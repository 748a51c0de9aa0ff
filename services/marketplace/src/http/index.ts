import { testClockRouter } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { runJobsOnce } from '../use-cases/run-jobs';
import { marketplaceRouter } from './marketplace';

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const router = Router();
  router.use(marketplaceRouter(context));
  // Test only (failpoint marketplace.clock, refused in production): move the clock forward, then run the jobs at
  // once, so a test sees a 30-day licence end.
  if (context.clock.adjustable) {
    router.use(testClockRouter(context.clock, { afterMove: () => runJobsOnce(context) }));
  }
  return router;
}

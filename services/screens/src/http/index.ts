// Screens' routes (paths as in the contracts' route table), one router per area: each parses with the contract
// schema and calls one use case.
import { testClockRouter } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { sweepIncidents } from '../use-cases/incident-sweep';
import { alertsRouter } from './alerts';
import { deviceRouter } from './device';
import { fleetRouter } from './fleet';
import { pairingRouter } from './pairing';
import { playsRouter } from './plays';
import { proposalsRouter } from './proposals';
import { screensRouter } from './screens';

export function createRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.use(pairingRouter(ctx));
  // the areas' literal paths (/api/screens/groups, /plays, /device/…) never match another's parameters
  router.use(playsRouter(ctx));
  router.use(fleetRouter(ctx));
  router.use(alertsRouter(ctx));
  router.use(proposalsRouter(ctx));
  router.use(screensRouter(ctx));
  router.use(deviceRouter(ctx));
  // Test only (failpoint screens.clock, refused in production): move the clock, then sweep incidents at once, so a
  // browser test sees the e-mail of a screen offline past its threshold without waiting minutes.
  if (ctx.clock.adjustable) {
    router.use(testClockRouter(ctx.clock, { afterMove: async () => ({ sweep: await sweepIncidents(ctx) }) }));
  }
  return router;
}

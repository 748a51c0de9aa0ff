import type { Router } from 'express';
import type { ServiceContext } from '../context';
import type { AccountDeps } from '../use-cases/deps';
import { createAuditRoutes } from './audit';
import { createRoutes } from './routes';

export * from './cookies';

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const { config, logger, data, outbox, mailer, tokens, background, knownBrowserKey, clock, memberships } = context;
  const { settings, settingsKeeper } = context;
  const deps: AccountDeps = {
    publicUrl: config.PUBLIC_URL,
    loginFailuresPerAddress: config.LOGIN_FAILURES_PER_ADDRESS,
    knownBrowserKey,
    logger,
    data,
    outbox,
    mailer,
    memberships,
    settings,
    settingsKeeper,
    tokens,
    background,
    clock,
  };
  const router = createRoutes({ deps, tokens, secureCookies: config.PUBLIC_URL.startsWith('https:') });
  router.use(createAuditRoutes(deps));
  return router;
}

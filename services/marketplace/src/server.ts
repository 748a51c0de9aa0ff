import { createFailpoints, type Logger, runPeriodically, startServiceRuntime } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Server, ServiceContext } from './context';
import { createRepositories, ensureIndexes } from './data';
import type { BillingClient } from './data/billing';
import { createBillingClient } from './data/billing-http';
import { startConsumers } from './events';
import { createRouter } from './http';
import { runJobsOnce } from './use-cases/run-jobs';

export const SERVICE_NAME = 'marketplace';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_marketplace';

export type { Server, ServiceContext };

/**
 * Connects to the servers, starts the outbox relay, the consumers, the periodic jobs (pending purchases, licence
 * expiry) and HTTP on config.PORT (0 = any free port). Used by main.ts and by the component tests.
 */
export async function createServer(
  config: Config,
  opts: { logger?: Logger; billing?: BillingClient; jobs?: boolean } = {},
): Promise<Server> {
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    context: async (base): Promise<ServiceContext> => {
      const data = createRepositories(base.conn);
      await ensureIndexes(data);
      // test only (refused in production): the fault tests' crash points and the clock a test moves forward
      const failpoints = createFailpoints(SERVICE_NAME, config.PAGECAST_FAILPOINTS, base.logger, base.clock);
      return {
        ...base,
        data,
        billing: opts.billing ?? createBillingClient(config),
        failpoints,
      };
    },
    mount: async (context, onClose) => {
      context.data.listings.index.start();
      onClose(() => context.data.listings.index.stop());
      const consumers = await startConsumers(context);
      onClose(() => Promise.all(consumers.map((c) => c.stop())));
      if (opts.jobs !== false) {
        const jobs = runPeriodically(config.JOBS_INTERVAL_MS, () => runJobsOnce(context, { force: false }), {
          logger: context.logger,
          name: 'marketplace jobs',
        });
        onClose(() => jobs.stop());
      }
      return [createRouter(context)];
    },
  });
}

import { type Logger, runPeriodically, startServiceRuntime } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Clock, Server, ServiceContext } from './context';
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

function createClock(enabled: boolean): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      if (!enabled) throw new Error('the clock moves only in tests (TEST_CLOCK)');
      offset += ms;
    },
  };
}

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
      return {
        ...base,
        data,
        billing: opts.billing ?? createBillingClient(config),
        clock: createClock(config.TEST_CLOCK),
        crashAt(point) {
          // kill -9 at this step: no close, no flush (fault tests only; production refuses CRASH_POINT)
          if (config.CRASH_POINT === point) process.kill(process.pid, 'SIGKILL');
        },
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

import { createFailpoints, type Logger, runPeriodically, startServiceRuntime } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Server, ServiceContext } from './context';
import { createRepositories, ensureIndexes } from './data';
import { createCardProvider, registerLocalWebhook } from './data/card-provider';
import { startConsumers } from './events';
import { createRouter } from './http';
import { runJobs } from './use-cases/run-jobs';

export type { Server, ServiceContext } from './context';

export const SERVICE_NAME = 'billing';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_billing';

/**
 * Connects to the servers, starts the outbox relay, the consumers, the jobs and HTTP on config.PORT (0 = any free
 * port). Used by main.ts and by the component tests, which run the real service in-process.
 */
export async function createServer(config: Config, opts: { logger?: Logger } = {}): Promise<Server> {
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    context: async (base): Promise<ServiceContext> => {
      const cards = config.STRIPE_SECRET_KEY
        ? createCardProvider({
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            apiBase: config.STRIPE_API_BASE,
            webhookToleranceSeconds: config.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
          })
        : null;
      if (cards && config.STRIPE_API_BASE && config.STRIPE_LOCAL_WEBHOOK_URL && config.STRIPE_WEBHOOK_SECRET) {
        await registerLocalWebhook(
          config.STRIPE_API_BASE,
          base.dbName.replace(/[^\w-]/g, '_'),
          config.STRIPE_LOCAL_WEBHOOK_URL,
          config.STRIPE_WEBHOOK_SECRET,
        );
      }
      await ensureIndexes(base.conn);
      // test only (refused in production): the crash tests' kill points and the settable clock
      const failpoints = createFailpoints(SERVICE_NAME, config.PAGECAST_FAILPOINTS, base.logger, base.clock);
      return {
        ...base,
        data: createRepositories(base.conn),
        cards,
        failpoints,
      };
    },
    mount: async (context, onClose) => {
      const consumers = await startConsumers(context);
      onClose(() => Promise.all(consumers.map((c) => c.stop())));
      if (config.JOBS_INTERVAL_MS > 0) {
        const jobs = runPeriodically(config.JOBS_INTERVAL_MS, () => runJobs(context), {
          logger: context.logger,
          name: 'billing jobs',
        });
        onClose(() => jobs.stop());
      }
      return [createRouter(context)];
    },
  });
}

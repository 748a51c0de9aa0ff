import { type Logger, type RunningService, type RuntimeContext, startServiceRuntime } from '@pagecast/service-kit';
import type { Config } from './config';
import { createRepositories, type Repositories } from './data';
import { startConsumers } from './events';
import { createRouter } from './http';

export const SERVICE_NAME = 'marketplace';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_marketplace';

/** What routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
}

export type Server = RunningService<ServiceContext>;

/**
 * Connects to the servers, starts the outbox relay, the consumers and HTTP on config.PORT (0 = any free port).
 * Used by main.ts and by the component tests, which run the real service in-process.
 */
export async function createServer(config: Config, opts: { logger?: Logger } = {}): Promise<Server> {
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    context: (base): ServiceContext => ({ ...base, data: createRepositories(base.conn) }),
    mount: async (context, onClose) => {
      const consumers = await startConsumers(context);
      onClose(() => Promise.all(consumers.map((c) => c.stop())));
      return [createRouter(context)];
    },
  });
}

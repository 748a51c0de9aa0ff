import type { Failpoints, Logger, RunningService, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';
import type { BillingClient } from './data/billing';

/** What use cases, routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  billing: BillingClient;
  /** the fault tests' crash points (`failpoints.hit(...)`), off unless PAGECAST_FAILPOINTS turns them on */
  failpoints: Failpoints<'marketplace'>;
}

export type Server = RunningService<ServiceContext>;
export type { Logger };

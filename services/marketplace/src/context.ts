import type { Logger, RunningService, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';
import type { BillingClient } from './data/billing';

/** The service's clock: real time, plus a forward offset that only a test build can set (config.TEST_CLOCK). */
export interface Clock {
  now(): Date;
  advance(ms: number): void;
}

/** What use cases, routers and consumers get: connections and repositories, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  billing: BillingClient;
  clock: Clock;
  /** Test only: the fault tests' crash point (the process exits at once, as with kill -9). */
  crashAt(point: NonNullable<Config['CRASH_POINT']>): void;
}

export type Server = RunningService<ServiceContext>;
export type { Logger };

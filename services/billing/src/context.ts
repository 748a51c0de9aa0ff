import type { Logger, RunningService, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';
import type { CardProvider } from './data/card-provider';

/** The service's clock: real time, or (config.TEST_CLOCK) a time a test sets. */
export interface Clock {
  now(): Date;
  set(at: Date | null): void;
}

/** What use cases, routers and consumers get: connections, repositories and adapters, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  /** null when no secret key is configured: card payments answer PAYMENT_NOT_CONFIGURED */
  cards: CardProvider | null;
  clock: Clock;
  /** Test only: the crash tests' kill point (the process exits at once, as with kill -9). */
  crashAt(point: NonNullable<Config['CRASH_POINT']>): void;
}

export type Server = RunningService<ServiceContext>;
export type { Logger };

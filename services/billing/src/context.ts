import type { Failpoints, Logger, RunningService, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';
import type { CardProvider } from './data/card-provider';

/** What use cases, routers and consumers get: connections, repositories and adapters, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  /** null when no secret key is configured: card payments answer PAYMENT_NOT_CONFIGURED */
  cards: CardProvider | null;
  /** the crash tests' kill points (`failpoints.hit(...)`), off unless PAGECAST_FAILPOINTS turns them on */
  failpoints: Failpoints<'billing'>;
}

export type Server = RunningService<ServiceContext>;
export type { Logger };

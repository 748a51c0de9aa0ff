import type { Failpoints, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';

/** What use cases, routers and consumers receive: connections and repositories, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  /** the crash tests' kill points (`failpoints.hit(...)`), off unless PAGECAST_FAILPOINTS turns them on */
  failpoints: Failpoints<'screens'>;
}

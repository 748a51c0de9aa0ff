import type { Clock, RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';

/** What use cases, routers and consumers receive: connections and repositories, created once at start. */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  /** the clock (ms); tests move it */
  now(): number;
  /** real time, unless the test-only failpoint screens.clock lets a test move it (what now() reads by default) */
  clock: Clock;
}

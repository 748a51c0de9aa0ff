import type { RuntimeContextWithS3 } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Repositories } from './data';
import type { LocalOriginals } from './workers/local-originals';
import type { ServiceSettings } from './config';

/** What routers and consumers get: connections and repositories, created once at start (own module: no circles). */
export interface ServiceContext extends RuntimeContextWithS3<Config> {
  data: Repositories;
  settings: ServiceSettings;
  /** uploads still on this machine, for this process's workers (undefined when it runs no workers) */
  localOriginals: LocalOriginals | undefined;
}

// Wiring only: read the configuration, start the service, close it gracefully on SIGINT/SIGTERM.
import { runService } from '@pagecast/service-kit';
import { loadServiceConfig } from './config';
import { createServer, SERVICE_NAME } from './server';

runService({ name: SERVICE_NAME, start: async () => createServer(loadServiceConfig()) });

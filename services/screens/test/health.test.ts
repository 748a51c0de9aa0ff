import { describeServiceHealth } from '@pagecast/service-kit/health-suite';
import { loadServiceConfig } from '../src/config';
import { createServer, SERVICE_NAME } from '../src/server';

describeServiceHealth({
  service: SERVICE_NAME,
  defaultPort: 4105,
  loadConfig: loadServiceConfig,
  createServer,
});

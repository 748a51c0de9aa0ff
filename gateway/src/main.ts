import { runService } from '@pagecast/service-kit';
import { loadGatewayConfig } from './config.js';
import { createGateway } from './server.js';

runService({
  name: 'gateway',
  async start() {
    const gateway = createGateway(loadGatewayConfig());
    await gateway.start();
    return { close: () => gateway.close() };
  },
});

import { runService } from '@pagecast/service-kit';
import { loadGatewayConfig } from './config';
import { createGateway } from './server';

runService({
  name: 'gateway',
  async start() {
    const gateway = createGateway(loadGatewayConfig());
    await gateway.start();
    return { close: () => gateway.close() };
  },
});

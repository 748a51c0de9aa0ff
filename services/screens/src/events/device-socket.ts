// The display's socket (docs/device-socket.md): the gateway relays each of its calls over core NATS
// (`screens.device.<type>`, queue group `screens`), answered here by the same use cases, contract parsing and error
// bodies as the HTTP device routes (device.ts), so a call has the same effect and answer whichever way it came.
import { serveDeviceRpc } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { deviceCalls } from '../http/device';

export function serveDeviceSocketCalls(ctx: ServiceContext) {
  const calls = deviceCalls(ctx);
  return serveDeviceRpc(ctx.nats.nc, {
    secret: ctx.config.INTERNAL_SECRET,
    logger: ctx.logger,
    prefix: ctx.config.DEVICE_RPC_SUBJECT_PREFIX,
    handlers: {
      // the version the display should hold (its `hello`, and the gateway's check after a change)
      manifest: async (device) => ({ body: { version: (await calls.manifest(device)).version } }),
      heartbeat: async (device, body) => ({ body: await calls.heartbeat(device, body) }),
      key: async (device, body) => ({ body: await calls.key(device, body) }),
      plays: async (device, body) => ({ body: await calls.plays(device, body) }),
    },
  });
}

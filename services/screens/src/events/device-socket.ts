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
      // the version the display should hold (its `hello`, and the gateway's check after a change), with the
      // manifest's text: the display reads it right after, and the gateway answers that read from it (the bytes the
      // HTTP route sends, so the ETag still names them)
      manifest: async (device) => {
        const { version, json } = await calls.manifest(device);
        return { body: { version, manifest: json } };
      },
      heartbeat: async (device, body) => ({ body: await calls.heartbeat(device, body) }),
      key: async (device, body) => ({ body: await calls.key(device, body) }),
      plays: async (device, body) => ({ body: await calls.plays(device, body) }),
    },
  });
}

// The display's content reads over its socket (docs/device-socket.md): the gateway relays them over core NATS
// (`rpc.files.device.<type>`, queue group `file-conversion`), answered here by the use cases of the HTTP reads
// (use-cases/device-reads.ts), with the same rules, bodies, error bodies and ETags: after a playlist edit thousands
// of displays read at once, and over HTTP each read was a new connection and two HTTP hops.
import { DEVICE_MEDIA_ACCESS_CALL, DeviceMediaAccessRequest, DeviceReadRequest } from '@pagecast/contracts';
import { conditionalAnswer, DEVICE_READ_QUEUE, parseWith, serveDeviceRpc } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { deviceCaller } from '../http/caller';
import { deviceFilePages, devicePlaylistItems } from '../use-cases/device-reads';
import { mediaAccess } from '../use-cases/media-access';

export function serveDeviceReads(ctx: ServiceContext) {
  return serveDeviceRpc(ctx.nats.nc, {
    secret: ctx.config.INTERNAL_SECRET,
    logger: ctx.logger,
    prefix: ctx.config.DEVICE_READ_SUBJECT_PREFIX,
    queue: DEVICE_READ_QUEUE,
    handlers: {
      // GET /api/playlists/:id/items
      playlist: async (device, body) => {
        const { id, etag } = parseWith(DeviceReadRequest, body);
        return conditionalAnswer(await devicePlaylistItems(ctx, deviceCaller(device), id), etag);
      },
      // GET /api/files/:id/pages?signage_mode=true (what it plays: the player's use)
      pages: async (device, body) => {
        const { id, etag } = parseWith(DeviceReadRequest, body);
        return conditionalAnswer(await deviceFilePages(ctx, deviceCaller(device), id, 'play'), etag);
      },
      // GET /internal/media-access/<key> for a display: the gateway's check before it serves a page image (a boot or
      // an edit asks for thousands of displays at once; the relay gathers them into a few requests)
      [DEVICE_MEDIA_ACCESS_CALL]: async (device, body) => {
        const { key } = parseWith(DeviceMediaAccessRequest, body);
        return { body: await mediaAccess(ctx, deviceCaller(device), key) };
      },
    },
  });
}

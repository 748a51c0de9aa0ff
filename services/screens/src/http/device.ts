// A paired display's own calls (its device token): what it shows, its heartbeat, its proof-of-play batches. The same
// calls come over the display's socket too (events/device-socket.ts): both call the same use cases through `deviceCalls`.
import { createHash } from 'node:crypto';
import {
  type DeviceIdentity,
  type DeviceScreen,
  HeartbeatRequest,
  PlayBatchRequest,
  RegisterDisplayKeyRequest,
} from '@pagecast/contracts';
import { parseWith, requireDevice } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { getDeviceScreen } from '../use-cases/device-screen';
import { recordHeartbeat } from '../use-cases/record-heartbeat';
import { recordPlays } from '../use-cases/record-plays';
import { registerDisplayKey } from '../use-cases/signed-batch';
import { noStore } from './no-store';

/**
 * The manifest's text and its version: the ETag of GET /api/screens/device/me and the `version` of the socket's
 * `manifest` frame, so a display compares the one it holds with either. Express's own weak ETag form (length and
 * SHA-1 of the body), computed here so the socket's answer needs no HTTP response.
 */
export function manifestAnswer(manifest: DeviceScreen): { json: string; version: string } {
  const json = JSON.stringify(manifest);
  const hash = createHash('sha1').update(json, 'utf8').digest('base64').slice(0, 27);
  return { json, version: `W/"${Buffer.byteLength(json).toString(16)}-${hash}"` };
}

/** Each device call parsed with its contract schema, as both paths make it: (device, request body) → answer body. */
export function deviceCalls(ctx: ServiceContext) {
  return {
    manifest: async (device: DeviceIdentity) => manifestAnswer(await getDeviceScreen(ctx, device)),
    heartbeat: async (device: DeviceIdentity, body: unknown) => {
      await recordHeartbeat(ctx, device, parseWith(HeartbeatRequest, body));
      return { ok: true as const };
    },
    key: (device: DeviceIdentity, body: unknown) =>
      registerDisplayKey(ctx, device, parseWith(RegisterDisplayKeyRequest, body).publicKey),
    plays: (device: DeviceIdentity, body: unknown) => recordPlays(ctx, device, parseWith(PlayBatchRequest, body)),
  };
}

export function deviceRouter(ctx: ServiceContext): Router {
  const router = Router();
  const calls = deviceCalls(ctx);
  router.get('/api/screens/device/me', async (req, res) => {
    const { json, version } = await calls.manifest(requireDevice(req));
    // express answers 304 itself when If-None-Match names this version
    noStore(res).set('ETag', version).type('json').send(json);
  });
  router.post('/api/screens/device/heartbeat', async (req, res) => {
    res.json(await calls.heartbeat(requireDevice(req), req.body));
  });
  router.post('/api/screens/device/key', async (req, res) => {
    noStore(res).json(await calls.key(requireDevice(req), req.body));
  });
  router.post('/api/screens/device/plays', async (req, res) => {
    res.json(await calls.plays(requireDevice(req), req.body));
  });
  return router;
}

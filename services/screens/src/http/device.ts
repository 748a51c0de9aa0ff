// A paired display's own calls (its device token): what it shows, its heartbeat, its proof-of-play batches.
import { HeartbeatRequest, PlayBatchRequest, RegisterDisplayKeyRequest } from '@pagecast/contracts';
import { parseWith, requireDevice } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { getDeviceScreen } from '../use-cases/device-screen';
import { recordHeartbeat } from '../use-cases/record-heartbeat';
import { recordPlays } from '../use-cases/record-plays';
import { registerDisplayKey } from '../use-cases/signed-batch';
import { noStore } from './no-store';

export function deviceRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/device/me', async (req, res) => {
    noStore(res).json(await getDeviceScreen(ctx, requireDevice(req)));
  });
  router.post('/api/screens/device/heartbeat', async (req, res) => {
    const device = requireDevice(req);
    await recordHeartbeat(ctx, device, parseWith(HeartbeatRequest, req.body));
    res.json({ ok: true });
  });
  router.post('/api/screens/device/key', async (req, res) => {
    const device = requireDevice(req);
    const { publicKey } = parseWith(RegisterDisplayKeyRequest, req.body);
    noStore(res).json(await registerDisplayKey(ctx, device, publicKey));
  });
  router.post('/api/screens/device/plays', async (req, res) => {
    const device = requireDevice(req);
    res.json(await recordPlays(ctx, device, parseWith(PlayBatchRequest, req.body)));
  });
  return router;
}

// Screens' routes (paths as in the contracts' route table): parse with the contract schema, call one use case.
import {
  DEVICE_COOKIE,
  DEVICE_TOKEN_TTL_SECONDS,
  HeartbeatRequest,
  PairingIdParams,
  PairScreenRequest,
  PlayBatchRequest,
  PlayReportQuery,
  PollPairingRequest,
  RefusedPlaysQuery,
  ScreenIdParams,
  SoldPlaysQuery,
  UpdateScreenRequest,
} from '@pagecast/contracts';
import { parseWith, requireDevice, requireIdentity } from '@pagecast/service-kit';
import { type Request, type Response, Router } from 'express';
import type { ServiceContext } from '../context';
import { getDeviceScreen } from '../use-cases/device-screen';
import { listScreens } from '../use-cases/list-screens';
import { pairScreen } from '../use-cases/pair-screen';
import { playReport, playReportCsv } from '../use-cases/play-report';
import { pollPairing } from '../use-cases/poll-pairing';
import { recordHeartbeat } from '../use-cases/record-heartbeat';
import { recordPlays } from '../use-cases/record-plays';
import { refusedPlays } from '../use-cases/refused-plays';
import { revokeScreen } from '../use-cases/revoke-screen';
import { soldPlays } from '../use-cases/sold-plays';
import { startPairing } from '../use-cases/start-pairing';
import { updateScreen } from '../use-cases/update-screen';

const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

export function createRouter(ctx: ServiceContext): Router {
  const router = Router();
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');
  const deviceCookie = (token: string) =>
    `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${DEVICE_TOKEN_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  // The gateway verifies device tokens against these keys (never routed from outside: no /api prefix).
  router.get('/.well-known/jwks.json', async (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60').json(await ctx.data.deviceTokens.jwks());
  });

  router.post('/api/screens/pairing', async (req: Request, res) => {
    noStore(res)
      .status(201)
      .json(await startPairing(ctx, { address: req.ip ?? 'unknown' }));
  });
  router.post('/api/screens/pairing/:pairingId/poll', async (req, res) => {
    const { pairingId } = parseWith(PairingIdParams, req.params);
    const { pollSecret } = parseWith(PollPairingRequest, req.body);
    const { token, ...status } = await pollPairing(ctx, { pairingId, pollSecret });
    if (token) res.append('Set-Cookie', deviceCookie(token));
    noStore(res).json(status);
  });

  router.post('/api/screens', async (req, res) => {
    const me = requireIdentity(req);
    res.status(201).json(await pairScreen(ctx, me.userId, parseWith(PairScreenRequest, req.body)));
  });
  router.get('/api/screens', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await listScreens(ctx, me.userId));
  });
  router.get('/api/screens/plays', async (req, res) => {
    const me = requireIdentity(req);
    const query = parseWith(PlayReportQuery, req.query);
    const report = await playReport(ctx, me.userId, query);
    noStore(res);
    if (query.format === 'csv') {
      res
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="plays-${query.from}-${query.to}.csv"`)
        .send(playReportCsv(report));
    } else res.json(report);
  });
  router.get('/api/screens/plays/refused', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await refusedPlays(ctx, me.userId, parseWith(RefusedPlaysQuery, req.query)));
  });
  router.get('/api/screens/plays/sold', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await soldPlays(ctx, me.userId, parseWith(SoldPlaysQuery, req.query)));
  });
  router.put('/api/screens/:id', async (req, res) => {
    const me = requireIdentity(req);
    const { id } = parseWith(ScreenIdParams, req.params);
    res.json(await updateScreen(ctx, me.userId, id, parseWith(UpdateScreenRequest, req.body)));
  });
  router.delete('/api/screens/:id', async (req, res) => {
    const me = requireIdentity(req);
    const { id } = parseWith(ScreenIdParams, req.params);
    await revokeScreen(ctx, me.userId, id);
    res.json({ ok: true });
  });

  router.get('/api/screens/device/me', async (req, res) => {
    noStore(res).json(await getDeviceScreen(ctx, requireDevice(req)));
  });
  router.post('/api/screens/device/heartbeat', async (req, res) => {
    const device = requireDevice(req);
    await recordHeartbeat(ctx, device, parseWith(HeartbeatRequest, req.body));
    res.json({ ok: true });
  });
  router.post('/api/screens/device/plays', async (req, res) => {
    const device = requireDevice(req);
    res.json(await recordPlays(ctx, device, parseWith(PlayBatchRequest, req.body)));
  });
  return router;
}

// Pairing (a display asks for a code and polls; the member claims codes) and the device tokens' public keys.
import {
  BulkPairingRequest,
  DEVICE_COOKIE,
  DEVICE_TOKEN_TTL_SECONDS,
  PairingIdParams,
  PairScreenRequest,
  PollPairingRequest,
} from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, Router } from 'express';
import type { ServiceContext } from '../context';
import { bulkPairScreens } from '../use-cases/bulk-pairing';
import { pairScreen } from '../use-cases/pair-screen';
import { pollPairing } from '../use-cases/poll-pairing';
import { startPairing } from '../use-cases/start-pairing';
import { noStore } from './no-store';

export function pairingRouter(ctx: ServiceContext): Router {
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
      // the pairing rate limit counts the display's address, as the gateway signed it
      .json(await startPairing(ctx, { address: req.clientAddress ?? 'unknown' }));
  });
  router.post('/api/screens/pairing/:pairingId/poll', async (req, res) => {
    const { pairingId } = parseWith(PairingIdParams, req.params);
    const { pollSecret, publicKey } = parseWith(PollPairingRequest, req.body);
    const { token, ...status } = await pollPairing(ctx, { pairingId, pollSecret, publicKey });
    if (token) res.append('Set-Cookie', deviceCookie(token));
    noStore(res).json(status);
  });

  router.post('/api/screens', async (req, res) => {
    const me = requireActor(req, 'screens.manage');
    res
      .status(201)
      .json(await pairScreen(ctx, me.workspaceId, parseWith(PairScreenRequest, req.body), auditActor(req)));
  });
  // many codes claimed in one call (the displays still collect their tokens by polling)
  router.post('/api/screens/bulk-pairing', async (req, res) => {
    const me = requireActor(req, 'screens.manage');
    noStore(res).json(
      await bulkPairScreens(ctx, me.workspaceId, parseWith(BulkPairingRequest, req.body), auditActor(req)),
    );
  });
  return router;
}

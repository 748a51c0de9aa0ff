// Screens' routes (paths as in the contracts' route table): parse with the contract schema, call one use case.
import {
  AgendaQuery,
  BulkChangeRequest,
  BulkPairingRequest,
  CreateGroupRequest,
  DEVICE_COOKIE,
  DEVICE_TOKEN_TTL_SECONDS,
  FleetHealthQuery,
  GroupIdParams,
  GroupOrderRequest,
  HeartbeatRequest,
  PairingIdParams,
  PairScreenRequest,
  PlayBatchRequest,
  PlayProofQuery,
  PlayReportQuery,
  PollPairingRequest,
  RefusedPlaysQuery,
  RegisterDisplayKeyRequest,
  ScreenAgendaParams,
  ScreenIdParams,
  SoldPlaysQuery,
  StartTakeoverRequest,
  TakeoverIdParams,
  TakeoverTemplateRequest,
  TemplateIdParams,
  UpdateGroupRequest,
  UpdateScreenRequest,
} from '@pagecast/contracts';
import { parseWith, requireDevice, requireIdentity, testClockRouter } from '@pagecast/service-kit';
import { type Request, type Response, Router } from 'express';
import type { ServiceContext } from '../context';
import { groupAgenda, screenAgenda } from '../use-cases/agenda';
import { sweepIncidents } from '../use-cases/incident-sweep';
import { bulkChange } from '../use-cases/bulk-change';
import { bulkPairScreens } from '../use-cases/bulk-pairing';
import { getDeviceScreen } from '../use-cases/device-screen';
import { fleetHealth } from '../use-cases/fleet-health';
import { createGroup, deleteGroup, listGroups, setGroupOrder, updateGroup } from '../use-cases/groups';
import { listScreens } from '../use-cases/list-screens';
import { pairScreen } from '../use-cases/pair-screen';
import { ownerPlayProof, proofFileName, soldPlayProof } from '../use-cases/play-proof';
import { playReport, playReportCsv } from '../use-cases/play-report';
import { pollPairing } from '../use-cases/poll-pairing';
import { recordHeartbeat } from '../use-cases/record-heartbeat';
import { recordPlays } from '../use-cases/record-plays';
import { refusedPlays } from '../use-cases/refused-plays';
import { revokeScreen } from '../use-cases/revoke-screen';
import { registerDisplayKey } from '../use-cases/signed-batch';
import { screenIncidents } from '../use-cases/screen-incidents';
import { soldPlays } from '../use-cases/sold-plays';
import { startPairing } from '../use-cases/start-pairing';
import {
  createTemplate,
  deleteTemplate,
  endTakeover,
  listTakeovers,
  listTemplates,
  startTakeover,
  takeoverLog,
  updateTemplate,
} from '../use-cases/takeovers';
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
    const me = requireIdentity(req);
    res.status(201).json(await pairScreen(ctx, me.userId, parseWith(PairScreenRequest, req.body)));
  });
  // issue 40: many codes claimed in one call (the displays still collect their tokens by polling)
  router.post('/api/screens/bulk-pairing', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await bulkPairScreens(ctx, me.userId, parseWith(BulkPairingRequest, req.body)));
  });
  router.get('/api/screens', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await listScreens(ctx, me.userId));
  });
  // issue 38: the member's screens' health (counts and one page)
  router.get('/api/screens/health', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await fleetHealth(ctx, me.userId, parseWith(FleetHealthQuery, req.query)));
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
  // signed proof of play: one file's proof over whole UTC days, as a download checked offline by pagecast-verify
  router.get('/api/screens/plays/proof', async (req, res) => {
    const me = requireIdentity(req);
    const query = parseWith(PlayProofQuery, req.query);
    const proof = await ownerPlayProof(ctx, me.userId, query);
    noStore(res)
      .set('Content-Disposition', `attachment; filename="${proofFileName(query)}"`)
      .json(proof);
  });
  router.get('/api/screens/plays/sold/proof', async (req, res) => {
    const me = requireIdentity(req);
    const query = parseWith(PlayProofQuery, req.query);
    const proof = await soldPlayProof(ctx, me.userId, query);
    noStore(res)
      .set('Content-Disposition', `attachment; filename="${proofFileName(query)}"`)
      .json(proof);
  });
  router.get('/api/screens/plays/refused', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await refusedPlays(ctx, me.userId, parseWith(RefusedPlaysQuery, req.query)));
  });
  router.get('/api/screens/plays/sold', async (req, res) => {
    const me = requireIdentity(req);
    noStore(res).json(await soldPlays(ctx, me.userId, parseWith(SoldPlaysQuery, req.query)));
  });
  // fleet control (issue 37)
  router.get('/api/screens/groups', async (req, res) => {
    noStore(res).json(await listGroups(ctx, requireIdentity(req).userId));
  });
  router.post('/api/screens/groups', async (req, res) => {
    const me = requireIdentity(req);
    res.status(201).json(await createGroup(ctx, me.userId, parseWith(CreateGroupRequest, req.body)));
  });
  router.put('/api/screens/groups/order', async (req, res) => {
    const me = requireIdentity(req);
    res.json(await setGroupOrder(ctx, me.userId, parseWith(GroupOrderRequest, req.body)));
  });
  router.put('/api/screens/groups/:groupId', async (req, res) => {
    const me = requireIdentity(req);
    const { groupId } = parseWith(GroupIdParams, req.params);
    res.json(await updateGroup(ctx, me.userId, groupId, parseWith(UpdateGroupRequest, req.body)));
  });
  router.delete('/api/screens/groups/:groupId', async (req, res) => {
    const me = requireIdentity(req);
    const { groupId } = parseWith(GroupIdParams, req.params);
    await deleteGroup(ctx, me.userId, groupId);
    res.json({ ok: true });
  });
  router.get('/api/screens/groups/:groupId/agenda', async (req, res) => {
    const me = requireIdentity(req);
    const { groupId } = parseWith(GroupIdParams, req.params);
    noStore(res).json(await groupAgenda(ctx, me.userId, groupId, parseWith(AgendaQuery, req.query)));
  });
  router.post('/api/screens/bulk', async (req, res) => {
    const me = requireIdentity(req);
    res.json(await bulkChange(ctx, me.userId, parseWith(BulkChangeRequest, req.body)));
  });
  router.get('/api/screens/takeovers', async (req, res) => {
    noStore(res).json(await listTakeovers(ctx, requireIdentity(req).userId));
  });
  router.post('/api/screens/takeovers', async (req, res) => {
    const me = requireIdentity(req);
    res.status(201).json(await startTakeover(ctx, me.userId, parseWith(StartTakeoverRequest, req.body)));
  });
  router.get('/api/screens/takeovers/log', async (req, res) => {
    noStore(res).json(await takeoverLog(ctx, requireIdentity(req).userId));
  });
  router.delete('/api/screens/takeovers/:takeoverId', async (req, res) => {
    const me = requireIdentity(req);
    const { takeoverId } = parseWith(TakeoverIdParams, req.params);
    res.json(await endTakeover(ctx, me.userId, takeoverId));
  });
  router.get('/api/screens/takeover-templates', async (req, res) => {
    noStore(res).json(await listTemplates(ctx, requireIdentity(req).userId));
  });
  router.post('/api/screens/takeover-templates', async (req, res) => {
    const me = requireIdentity(req);
    res.status(201).json(await createTemplate(ctx, me.userId, parseWith(TakeoverTemplateRequest, req.body)));
  });
  router.put('/api/screens/takeover-templates/:templateId', async (req, res) => {
    const me = requireIdentity(req);
    const { templateId } = parseWith(TemplateIdParams, req.params);
    res.json(await updateTemplate(ctx, me.userId, templateId, parseWith(TakeoverTemplateRequest, req.body)));
  });
  router.delete('/api/screens/takeover-templates/:templateId', async (req, res) => {
    const me = requireIdentity(req);
    const { templateId } = parseWith(TemplateIdParams, req.params);
    await deleteTemplate(ctx, me.userId, templateId);
    res.json({ ok: true });
  });
  router.get('/api/screens/:id/agenda', async (req, res) => {
    const me = requireIdentity(req);
    const { id } = parseWith(ScreenAgendaParams, req.params);
    noStore(res).json(await screenAgenda(ctx, me.userId, id, parseWith(AgendaQuery, req.query)));
  });
  router.get('/api/screens/:id/incidents', async (req, res) => {
    const me = requireIdentity(req);
    const { id } = parseWith(ScreenIdParams, req.params);
    noStore(res).json(await screenIncidents(ctx, me.userId, id));
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
  router.post('/api/screens/device/key', async (req, res) => {
    const device = requireDevice(req);
    const { publicKey } = parseWith(RegisterDisplayKeyRequest, req.body);
    noStore(res).json(await registerDisplayKey(ctx, device, publicKey));
  });
  router.post('/api/screens/device/plays', async (req, res) => {
    const device = requireDevice(req);
    res.json(await recordPlays(ctx, device, parseWith(PlayBatchRequest, req.body)));
  });
  // Test only (failpoint screens.clock, refused in production): move the clock, then sweep incidents at once, so a
  // browser test sees the e-mail of a screen offline past its threshold without waiting minutes.
  if (ctx.clock.adjustable) {
    router.use(testClockRouter(ctx.clock, { afterMove: async () => ({ sweep: await sweepIncidents(ctx) }) }));
  }
  return router;
}

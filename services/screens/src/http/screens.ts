// The member's screens: the list, their health, and one screen's agenda, incidents, settings and unpairing.
import {
  AgendaQuery,
  FleetHealthQuery,
  ScreenAgendaParams,
  ScreenIdParams,
  UpdateScreenRequest,
} from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { screenAgenda } from '../use-cases/agenda';
import { fleetHealth } from '../use-cases/fleet-health';
import { listScreens } from '../use-cases/list-screens';
import { revokeScreen } from '../use-cases/revoke-screen';
import { screenIncidents } from '../use-cases/screen-incidents';
import { updateScreen } from '../use-cases/update-screen';
import { noStore } from './no-store';
import { proposed } from './proposals';

export function screensRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    noStore(res).json(await listScreens(ctx, me.workspaceId));
  });
  // the member's screens' health (counts and one page)
  router.get('/api/screens/health', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    noStore(res).json(await fleetHealth(ctx, me.workspaceId, parseWith(FleetHealthQuery, req.query)));
  });
  router.get('/api/screens/:id/agenda', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    const { id } = parseWith(ScreenAgendaParams, req.params);
    noStore(res).json(await screenAgenda(ctx, me.workspaceId, id, parseWith(AgendaQuery, req.query)));
  });
  router.get('/api/screens/:id/incidents', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    const { id } = parseWith(ScreenIdParams, req.params);
    noStore(res).json(await screenIncidents(ctx, me.workspaceId, id));
  });
  router.put('/api/screens/:id', async (req, res) => {
    const me = requireActor(req, 'screens.assign');
    const { id } = parseWith(ScreenIdParams, req.params);
    const input = parseWith(UpdateScreenRequest, req.body);
    if (await proposed(ctx, req, res, me, { kind: 'update-screen', screenId: id, request: input })) return;
    res.json(await updateScreen(ctx, me.workspaceId, id, input, auditActor(req)));
  });
  router.delete('/api/screens/:id', async (req, res) => {
    const me = requireActor(req, 'screens.manage');
    const { id } = parseWith(ScreenIdParams, req.params);
    await revokeScreen(ctx, me.workspaceId, id, auditActor(req));
    res.json({ ok: true });
  });
  return router;
}

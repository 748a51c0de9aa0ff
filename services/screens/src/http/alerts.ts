// Disaster alerts: the member's rules.
import { AlertRules } from '@pagecast/contracts';
import { auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { getAlertRules, setAlertRules } from '../use-cases/alert-rules';
import { noStore } from './no-store';

export function alertsRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/alert-rules', async (req, res) => {
    noStore(res).json(await getAlertRules(ctx, requireActor(req, 'screens.read').workspaceId));
  });
  router.put('/api/screens/alert-rules', async (req, res) => {
    const me = requireActor(req, 'screens.manage');
    res.json(await setAlertRules(ctx, me.workspaceId, parseWith(AlertRules, req.body), auditActor(req)));
  });
  return router;
}

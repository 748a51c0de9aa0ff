// Disaster alerts: the member's rules.
import { AlertRules } from '@pagecast/contracts';
import { parseWith, requireIdentity } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { getAlertRules, setAlertRules } from '../use-cases/alert-rules';
import { noStore } from './no-store';

export function alertsRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/alert-rules', async (req, res) => {
    noStore(res).json(await getAlertRules(ctx, requireIdentity(req).userId));
  });
  router.put('/api/screens/alert-rules', async (req, res) => {
    const me = requireIdentity(req);
    res.json(await setAlertRules(ctx, me.userId, parseWith(AlertRules, req.body)));
  });
  return router;
}

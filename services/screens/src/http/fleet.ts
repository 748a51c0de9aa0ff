// Fleet control: groups and their order and agenda, bulk changes, takeovers and their templates.
import {
  AgendaQuery,
  BulkChangeRequest,
  CreateGroupRequest,
  GroupIdParams,
  GroupOrderRequest,
  StartTakeoverRequest,
  TakeoverIdParams,
  TakeoverTemplateRequest,
  TemplateIdParams,
  UpdateGroupRequest,
} from '@pagecast/contracts';
import { parseWith, requireIdentity } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { groupAgenda } from '../use-cases/agenda';
import { bulkChange } from '../use-cases/bulk-change';
import { createGroup, deleteGroup, listGroups, setGroupOrder, updateGroup } from '../use-cases/groups';
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
import { noStore } from './no-store';

export function fleetRouter(ctx: ServiceContext): Router {
  const router = Router();
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
  return router;
}

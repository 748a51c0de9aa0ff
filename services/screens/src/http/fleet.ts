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
import { auditActor, authorize, parseWith, requireActor } from '@pagecast/service-kit';
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
import { proposed } from './proposals';

export function fleetRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/groups', async (req, res) => {
    noStore(res).json(await listGroups(ctx, requireActor(req, 'screens.read').workspaceId));
  });
  router.post('/api/screens/groups', async (req, res) => {
    const me = requireActor(req, 'groups.write');
    const input = parseWith(CreateGroupRequest, req.body);
    if (await proposed(ctx, req, res, me, { kind: 'create-group', request: input })) return;
    res.status(201).json(await createGroup(ctx, me.workspaceId, input, auditActor(req)));
  });
  router.put('/api/screens/groups/order', async (req, res) => {
    const me = requireActor(req, 'groups.write');
    const input = parseWith(GroupOrderRequest, req.body);
    if (await proposed(ctx, req, res, me, { kind: 'group-order', request: input })) return;
    res.json(await setGroupOrder(ctx, me.workspaceId, input, auditActor(req)));
  });
  router.put('/api/screens/groups/:groupId', async (req, res) => {
    const me = requireActor(req, 'groups.write');
    const { groupId } = parseWith(GroupIdParams, req.params);
    const input = parseWith(UpdateGroupRequest, req.body);
    if (await proposed(ctx, req, res, me, { kind: 'update-group', groupId, request: input })) return;
    res.json(await updateGroup(ctx, me.workspaceId, groupId, input, auditActor(req)));
  });
  router.delete('/api/screens/groups/:groupId', async (req, res) => {
    const me = requireActor(req, 'groups.write');
    const { groupId } = parseWith(GroupIdParams, req.params);
    if (await proposed(ctx, req, res, me, { kind: 'delete-group', groupId })) return;
    await deleteGroup(ctx, me.workspaceId, groupId, auditActor(req));
    res.json({ ok: true });
  });
  router.get('/api/screens/groups/:groupId/agenda', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    const { groupId } = parseWith(GroupIdParams, req.params);
    noStore(res).json(await groupAgenda(ctx, me.workspaceId, groupId, parseWith(AgendaQuery, req.query)));
  });
  router.post('/api/screens/bulk', async (req, res) => {
    const me = requireActor(req, 'screens.assign');
    const input = parseWith(BulkChangeRequest, req.body);
    // unpairing is the fleet itself (as DELETE /api/screens/:id), not what screens play
    if (input.change.kind === 'unpair') authorize(me, 'screens.manage');
    if (await proposed(ctx, req, res, me, { kind: 'bulk', request: input })) return;
    res.json(await bulkChange(ctx, me.workspaceId, input, auditActor(req)));
  });
  router.get('/api/screens/takeovers', async (req, res) => {
    noStore(res).json(await listTakeovers(ctx, requireActor(req, 'screens.read').workspaceId));
  });
  router.post('/api/screens/takeovers', async (req, res) => {
    const me = requireActor(req, 'takeovers.start');
    const input = parseWith(StartTakeoverRequest, req.body);
    // from a saved template any broadcaster may; content typed on the spot needs the right to compose one
    if (!('templateId' in input)) authorize(me, 'takeovers.compose');
    res.status(201).json(await startTakeover(ctx, me.workspaceId, me.userId, input, auditActor(req)));
  });
  router.get('/api/screens/takeovers/log', async (req, res) => {
    noStore(res).json(await takeoverLog(ctx, requireActor(req, 'screens.read').workspaceId));
  });
  router.delete('/api/screens/takeovers/:takeoverId', async (req, res) => {
    const me = requireActor(req, 'takeovers.end');
    const { takeoverId } = parseWith(TakeoverIdParams, req.params);
    res.json(await endTakeover(ctx, me.workspaceId, me.userId, takeoverId, auditActor(req)));
  });
  router.get('/api/screens/takeover-templates', async (req, res) => {
    noStore(res).json(await listTemplates(ctx, requireActor(req, 'screens.read').workspaceId));
  });
  router.post('/api/screens/takeover-templates', async (req, res) => {
    const me = requireActor(req, 'takeover-templates.write');
    res
      .status(201)
      .json(await createTemplate(ctx, me.workspaceId, parseWith(TakeoverTemplateRequest, req.body), auditActor(req)));
  });
  router.put('/api/screens/takeover-templates/:templateId', async (req, res) => {
    const me = requireActor(req, 'takeover-templates.write');
    const { templateId } = parseWith(TemplateIdParams, req.params);
    res.json(
      await updateTemplate(
        ctx,
        me.workspaceId,
        templateId,
        parseWith(TakeoverTemplateRequest, req.body),
        auditActor(req),
      ),
    );
  });
  router.delete('/api/screens/takeover-templates/:templateId', async (req, res) => {
    const me = requireActor(req, 'takeover-templates.write');
    const { templateId } = parseWith(TemplateIdParams, req.params);
    await deleteTemplate(ctx, me.workspaceId, templateId, auditActor(req));
    res.json({ ok: true });
  });
  return router;
}

// Approval: the workspace's proposals (an editor's changes waiting for a decision), approving, rejecting and
// withdrawing them; and `proposed`, which the routes whose change may wait call before making it.
import { type ProposalChange, ProposalIdParams, ProposalListQuery, RejectProposalRequest } from '@pagecast/contracts';
import { type Actor, auditActor, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, type Response, Router } from 'express';
import type { ServiceContext } from '../context';
import {
  approveProposal,
  listProposals,
  proposalDetail,
  proposeIfRequired,
  rejectProposal,
  withdrawProposal,
} from '../use-cases/proposals';
import { noStore } from './no-store';

/** Answers 202 with the proposal when the change waits for approval (true); false: the route makes it now. */
export async function proposed(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  me: Actor,
  change: ProposalChange,
): Promise<boolean> {
  const proposal = await proposeIfRequired(ctx, me, change, auditActor(req));
  if (!proposal) return false;
  res.status(202).json({ proposal });
  return true;
}

export function proposalsRouter(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/api/screens/proposals', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    noStore(res).json(await listProposals(ctx, me.workspaceId, parseWith(ProposalListQuery, req.query)));
  });
  router.get('/api/screens/proposals/:proposalId', async (req, res) => {
    const me = requireActor(req, 'screens.read');
    const { proposalId } = parseWith(ProposalIdParams, req.params);
    noStore(res).json(await proposalDetail(ctx, me.workspaceId, proposalId));
  });
  router.post('/api/screens/proposals/:proposalId/approve', async (req, res) => {
    const me = requireActor(req, 'approvals.decide');
    const { proposalId } = parseWith(ProposalIdParams, req.params);
    res.json(await approveProposal(ctx, me, proposalId, auditActor(req)));
  });
  router.post('/api/screens/proposals/:proposalId/reject', async (req, res) => {
    const me = requireActor(req, 'approvals.decide');
    const { proposalId } = parseWith(ProposalIdParams, req.params);
    const { reason } = parseWith(RejectProposalRequest, req.body);
    res.json(await rejectProposal(ctx, me, proposalId, reason, auditActor(req)));
  });
  router.delete('/api/screens/proposals/:proposalId', async (req, res) => {
    const me = requireActor(req, 'screens.assign');
    const { proposalId } = parseWith(ProposalIdParams, req.params);
    res.json(await withdrawProposal(ctx, me, proposalId, auditActor(req)));
  });
  return router;
}

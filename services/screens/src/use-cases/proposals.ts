// Approval: in a workspace that asks for it (its setting, read from account's key-value mirror), an editor's change of
// what screens play is checked in full by the same plan as doing it (change-plan.ts), nothing of it is written, and
// it waits as a proposal. Someone who may decide approves it (the same plan, checked again and applied under the
// owner's fleet lease), rejects it with a reason, or its editor (or an owner or admin) withdraws it.
//
// Exactly once without transactions (FerretDB's updates are read-then-write): a decision is first taken by an insert
// under the proposal's id (`proposal_decisions`), then the change is applied (its ids derive from the proposal's, so
// applying it again finds what the first attempt made), then the proposal, its event and audit entry are written
// (their ids derive from the proposal's too), then the decision is marked finished. An approval whose change is
// refused gives the decision back (the proposal stays pending). A crash in between leaves an unfinished decision,
// which finishDecisions (at start and periodically) carries to its end.
import { randomUUID } from 'node:crypto';
import {
  type AuditChange,
  PROPOSALS_PENDING_MAX,
  type Proposal,
  type ProposalChange,
  type ProposalDetail,
  type ProposalList,
  type ProposalListQuery,
  type ScreenAgenda,
} from '@pagecast/contracts';
import { type Actor, AppError, type AuditActor, auditDiff, nameUuid, publishAudit } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { DecisionDoc, ProposalDoc, ScreenRecord } from '../data';
import { givenWith, inputsOf } from '../domain';
import { agendaFor } from './agenda';
import { planBulkChange } from './bulk-change';
import type { ChangePlan, FleetState, PlanOptions } from './change-plan';
import { serialByOwner } from './fleet-lease';
import { planCreateGroup, planDeleteGroup, planGroupOrder, planUpdateGroup } from './groups';
import { planUpdateScreen } from './update-screen';

/** At most this many touched screens' agendas in a proposal's detail. */
export const PROPOSAL_AGENDA_SCREENS = 20;

/**
 * Whether a change waits for approval: what screens play (assignment, opening hours, a group's members), the groups,
 * their order and bulk changes. A screen's name, zone, rotation or place alone is made at once; a body mixing both
 * waits whole.
 */
export function waits(change: ProposalChange): boolean {
  switch (change.kind) {
    case 'update-screen':
      return change.request.assignment !== undefined || change.request.openingHours !== undefined;
    case 'update-group':
      return (
        change.request.screenIds !== undefined ||
        change.request.assignment !== undefined ||
        change.request.openingHours !== undefined
      );
    default:
      return true;
  }
}

/** The change's plan: the same checks and writes as the call that would make it now. */
export function planChange(
  ctx: ServiceContext,
  ownerId: string,
  change: ProposalChange,
  opts: PlanOptions,
): Promise<ChangePlan<unknown>> {
  switch (change.kind) {
    case 'update-screen':
      return planUpdateScreen(ctx, ownerId, change.screenId, change.request);
    case 'create-group':
      return planCreateGroup(ctx, ownerId, change.request, opts);
    case 'update-group':
      return planUpdateGroup(ctx, ownerId, change.groupId, change.request, opts);
    case 'delete-group':
      return planDeleteGroup(ctx, ownerId, change.groupId, opts);
    case 'group-order':
      return planGroupOrder(ctx, ownerId, change.request, opts);
    case 'bulk':
      return planBulkChange(ctx, ownerId, change.request, opts);
  }
}

/** What decides a screen's agenda and hours: its resolution inputs (takeovers aside) and the hours in force. */
function resolving(s: ScreenRecord, state: FleetState, now: number): string {
  if (s.revokedAt) return 'unpaired';
  const { takeovers: _, ...inputs } = inputsOf(s, { ...state.fleet, running: [] }, state.groupsById, now);
  return JSON.stringify({ inputs, hours: givenWith(s, s.groupIds ?? [], state.groupsById, state.fleet.order).hours });
}

/** The touched screens whose agenda (or hours) the change alters. */
function alteredScreens(plan: ChangePlan<unknown>, now: number): string[] {
  return plan.before.screens.flatMap((s, i) => {
    const after = plan.after.screens[i] as ScreenRecord;
    return resolving(s, plan.before, now) === resolving(after, plan.after, now) ? [] : [s._id];
  });
}

const diffsOf = (plan: ChangePlan<unknown>): ProposalDoc['objects'] =>
  plan.objects.map((o) => ({ type: o.type, id: o.id, diff: auditDiff(o.before, o.after) as AuditChange[] }));

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(p: ProposalDoc): Proposal {
  return {
    id: p._id,
    workspaceId: p.workspaceId,
    proposedBy: p.proposedBy,
    change: p.change,
    screenIds: p.screenIds,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    decidedBy: p.decidedBy,
    decidedAt: iso(p.decidedAt),
    reason: p.reason,
  };
}

/** A proposal as the audit log keeps it (what it changes is in the change itself). */
const auditSnapshot = (p: ProposalDoc) => {
  const { workspaceId: _w, ...rest } = present(p);
  return rest;
};

/**
 * The call's change waits as a proposal when the workspace asks for approval and the caller is an editor (owners and
 * admins never wait; nor do takeovers, which never come here); null: make it now. The change is checked in full under
 * the owner's fleet lease (the refusals of making it), and nothing of it is written.
 */
export async function proposeIfRequired(
  ctx: ServiceContext,
  actor: Actor,
  change: ProposalChange,
  audit: AuditActor,
): Promise<Proposal | null> {
  if (actor.role !== 'editor' || !waits(change)) return null;
  const { workspaceId } = actor;
  if (!(await ctx.data.settings.approvalRequired(workspaceId))) return null;
  return serialByOwner(ctx, workspaceId, async () => {
    if ((await ctx.data.proposals.countPending(workspaceId)) >= PROPOSALS_PENDING_MAX) {
      throw new AppError('PROPOSALS_PENDING_LIMIT', { details: { max: PROPOSALS_PENDING_MAX } });
    }
    const id = randomUUID();
    const plan = await planChange(ctx, workspaceId, change, { proposalId: id });
    const now = ctx.clock.ms();
    const doc: ProposalDoc = {
      _id: id,
      workspaceId,
      proposedBy: actor.userId,
      proposedFrom: audit.address,
      change,
      screenIds: alteredScreens(plan, now),
      status: 'pending',
      createdAt: new Date(now),
      decidedBy: null,
      decidedAt: null,
      reason: null,
      objects: diffsOf(plan),
    };
    await ctx.data.proposals.insert(doc);
    await ctx.outbox.add(
      'screens.proposal.created.v1',
      {
        proposalId: id,
        workspaceId,
        proposedBy: actor.userId,
        kind: change.kind,
        screensTotal: doc.screenIds.length,
        createdAt: doc.createdAt.toISOString(),
      },
      { id: nameUuid(`screens.proposal.created:${id}`, 'v5') },
    );
    await publishAudit(
      ctx.outbox,
      'screens',
      {
        workspaceId,
        actor: audit,
        action: 'proposal.created',
        object: { type: 'proposal', id },
        before: null,
        after: auditSnapshot(doc),
        key: id,
      },
      doc.createdAt,
    );
    return present(doc);
  });
}

/** The workspace's proposal, or PROPOSAL_NOT_FOUND (another workspace's is not found either). */
async function proposalOf(ctx: ServiceContext, workspaceId: string, id: string): Promise<ProposalDoc> {
  const p = await ctx.data.proposals.get(id);
  if (!p || p.workspaceId !== workspaceId) throw new AppError('PROPOSAL_NOT_FOUND');
  return p;
}

function stillPending(p: ProposalDoc): void {
  if (p.status !== 'pending') throw new AppError('PROPOSAL_DECIDED', { details: { status: p.status } });
}

/** Takes the proposal's decision (the atomic step), or PROPOSAL_DECIDED when another took it first. */
async function takeDecision(
  ctx: ServiceContext,
  p: ProposalDoc,
  outcome: DecisionDoc['outcome'],
  audit: AuditActor,
  reason: string | null,
): Promise<DecisionDoc> {
  const decision: DecisionDoc = {
    _id: p._id,
    workspaceId: p.workspaceId,
    outcome,
    by: audit.userId,
    address: audit.address,
    at: new Date(ctx.clock.ms()),
    reason,
    finishedAt: null,
  };
  if (!(await ctx.data.proposals.decisions.take(decision))) throw new AppError('PROPOSAL_DECIDED');
  return decision;
}

/**
 * Writes a taken decision's outcome: the proposal, its event and its audit entry (ids and values from the decision:
 * written again after a crash, the same), then marks the decision finished.
 */
async function finish(
  ctx: ServiceContext,
  p: ProposalDoc,
  decision: DecisionDoc,
  objects?: ProposalDoc['objects'],
): Promise<Proposal> {
  const pending: ProposalDoc = { ...p, status: 'pending', decidedBy: null, decidedAt: null, reason: null };
  const decided: ProposalDoc = {
    ...p,
    status: decision.outcome,
    decidedBy: decision.by,
    decidedAt: decision.at,
    reason: decision.reason,
    ...(objects ? { objects } : {}),
  };
  await ctx.data.proposals.set(p._id, {
    status: decided.status,
    decidedBy: decided.decidedBy,
    decidedAt: decided.decidedAt,
    reason: decided.reason,
    ...(objects ? { objects } : {}),
  });
  if (decision.outcome !== 'withdrawn') {
    await ctx.outbox.add(
      'screens.proposal.decided.v1',
      {
        proposalId: p._id,
        workspaceId: p.workspaceId,
        proposedBy: p.proposedBy,
        decidedBy: decision.by,
        outcome: decision.outcome,
        reason: decision.reason,
        kind: p.change.kind,
        screensTotal: p.screenIds.length,
        decidedAt: decision.at.toISOString(),
      },
      { id: nameUuid(`screens.proposal.decided:${p._id}`, 'v5') },
    );
  }
  await publishAudit(
    ctx.outbox,
    'screens',
    {
      workspaceId: p.workspaceId,
      actor: { userId: decision.by, address: decision.address },
      action: `proposal.${decision.outcome}`,
      object: { type: 'proposal', id: p._id },
      before: auditSnapshot(pending),
      after: auditSnapshot(decided),
      key: p._id,
    },
    decision.at,
  );
  await ctx.data.proposals.decisions.finished(p._id, new Date(ctx.clock.ms()));
  return present(decided);
}

/**
 * Approves: the change is checked again and made now, as its call would make it (its usual audit entry names the
 * approver, who made it go on air), under the owner's fleet lease. A refusal of the change (content deleted since, a
 * screen unpaired...) is the answer, and the proposal stays pending.
 */
export async function approveProposal(
  ctx: ServiceContext,
  actor: Actor,
  proposalId: string,
  audit: AuditActor,
): Promise<Proposal> {
  return serialByOwner(ctx, actor.workspaceId, async () => {
    const p = await proposalOf(ctx, actor.workspaceId, proposalId);
    stillPending(p);
    if (p.proposedBy === actor.userId) throw new AppError('PROPOSAL_OWN');
    const decision = await takeDecision(ctx, p, 'approved', audit, null);
    let objects: ProposalDoc['objects'];
    try {
      const plan = await planChange(ctx, p.workspaceId, p.change, { proposalId: p._id });
      objects = diffsOf(plan);
      await plan.apply(audit);
    } catch (err) {
      // refused: open again; anything else (a failed write) is left to finishDecisions
      if (err instanceof AppError) await ctx.data.proposals.decisions.release(p._id);
      throw err;
    }
    return finish(ctx, p, decision, objects);
  });
}

export async function rejectProposal(
  ctx: ServiceContext,
  actor: Actor,
  proposalId: string,
  reason: string,
  audit: AuditActor,
): Promise<Proposal> {
  const p = await proposalOf(ctx, actor.workspaceId, proposalId);
  stillPending(p);
  if (p.proposedBy === actor.userId) throw new AppError('PROPOSAL_OWN');
  return finish(ctx, p, await takeDecision(ctx, p, 'rejected', audit, reason));
}

/** Its editor withdraws their own; an owner or admin any (another editor's: FORBIDDEN_ROLE). */
export async function withdrawProposal(
  ctx: ServiceContext,
  actor: Actor,
  proposalId: string,
  audit: AuditActor,
): Promise<Proposal> {
  const p = await proposalOf(ctx, actor.workspaceId, proposalId);
  if (p.proposedBy !== actor.userId && actor.role !== 'owner' && actor.role !== 'admin') {
    throw new AppError('FORBIDDEN_ROLE');
  }
  stillPending(p);
  return finish(ctx, p, await takeDecision(ctx, p, 'withdrawn', audit, null));
}

/**
 * Every decision a crash left unfinished, carried to its end: an approval whose proposal is still pending has its
 * change applied again (what was made the first time is found: the ids derive from the proposal's), or given back
 * when the change is refused now; then the outcome is written. Under the owner's fleet lease, so never beside a live
 * approval; a decision finished meanwhile is left alone.
 */
export async function finishDecisions(ctx: ServiceContext): Promise<number> {
  let finished = 0;
  for (const found of await ctx.data.proposals.decisions.unfinished()) {
    // one workspace busy (FLEET_BUSY) or failing leaves the others to be finished; it is tried again next time
    await serialByOwner(ctx, found.workspaceId, async () => {
      const decision = await ctx.data.proposals.decisions.get(found._id);
      const p = await ctx.data.proposals.get(found._id);
      if (!decision || decision.finishedAt || !p) return;
      let objects: ProposalDoc['objects'] | undefined;
      if (decision.outcome === 'approved' && p.status === 'pending') {
        const actor = { userId: decision.by, address: decision.address };
        try {
          const plan = await planChange(ctx, p.workspaceId, p.change, { proposalId: p._id, resume: true });
          if (plan.objects.length > 0) objects = diffsOf(plan);
          await plan.apply(actor);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          ctx.logger.warn({ proposalId: p._id, code: err.code }, 'an approved proposal is refused now: open again');
          await ctx.data.proposals.decisions.release(p._id);
          return;
        }
      }
      await finish(ctx, p, decision, objects);
      finished++;
    }).catch((err) => ctx.logger.warn({ err, proposalId: found._id }, 'an approval decision not finished yet'));
  }
  return finished;
}

const encodeCursor = (p: ProposalDoc) =>
  Buffer.from(JSON.stringify([p.createdAt.getTime(), p._id])).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [t, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof t === 'number' && Number.isFinite(t) && typeof id === 'string') return { createdAt: new Date(t), id };
  } catch {}
  throw new AppError('VALIDATION', { issues: [{ path: 'cursor', message: 'invalid', key: 'validation.invalid' }] });
}

/** The workspace's proposals, newest first. */
export async function listProposals(
  ctx: ServiceContext,
  workspaceId: string,
  query: ProposalListQuery,
): Promise<ProposalList> {
  const docs = await ctx.data.proposals.page(workspaceId, {
    status: query.status,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = docs.slice(0, query.limit);
  return {
    proposals: page.map(present),
    nextCursor: docs.length > query.limit ? encodeCursor(page.at(-1) as ProposalDoc) : null,
  };
}

/**
 * One proposal and what it would do: a pending one is planned again now (each object's difference, and the agenda of
 * each touched screen, those it alters first, beside the agenda they have); a decided one, or one whose change is
 * refused now, shows the difference it had (when proposed, or when approved) and no agenda.
 */
export async function proposalDetail(
  ctx: ServiceContext,
  workspaceId: string,
  proposalId: string,
): Promise<ProposalDetail> {
  const p = await proposalOf(ctx, workspaceId, proposalId);
  const stored: ProposalDetail = {
    proposal: present(p),
    objects: p.objects,
    agenda: [],
    current: [],
    agendaScreensTotal: 0,
  };
  if (p.status !== 'pending') return stored;
  let plan: ChangePlan<unknown>;
  try {
    plan = await planChange(ctx, workspaceId, p.change, { proposalId: p._id });
  } catch (err) {
    if (err instanceof AppError) return stored;
    throw err;
  }
  const now = ctx.clock.ms();
  const altered = new Set(alteredScreens(plan, now));
  const indexes = plan.before.screens
    .map((s, i) => ({ i, first: altered.has(s._id) ? 0 : 1 }))
    .sort((a, b) => a.first - b.first)
    .slice(0, PROPOSAL_AGENDA_SCREENS)
    .map((x) => x.i);
  const agendas = (state: FleetState): Promise<ScreenAgenda[]> =>
    Promise.all(
      indexes.map((i) => agendaFor(ctx, state.screens[i] as ScreenRecord, state.fleet, state.groupsById, now)),
    );
  return {
    proposal: present(p),
    objects: diffsOf(plan),
    agenda: await agendas(plan.after),
    current: await agendas(plan.before),
    agendaScreensTotal: plan.before.screens.length,
  };
}

// Approval: in a workspace whose setting `approvalRequired` is on, an editor's change of what screens play waits as
// a proposal until someone who may decide (owner, admin, publisher: the policy's `approvals.decide`) approves or
// rejects it. The change is checked in full when proposed (the same refusals as doing it), stored as the request
// itself, and applied by the same use case when approved. Takeovers never wait.
import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Id, IsoDateTime } from '../validation';
import { AuditChange } from './audit';
import {
  BulkChangeRequest,
  CreateGroupRequest,
  GroupOrderRequest,
  ScreenAgenda,
  UpdateGroupRequest,
} from './screen-fleet';
import { UpdateScreenRequest } from './screens';

/**
 * The NATS key-value bucket account mirrors each workspace's settings into (key `<workspaceId>`, value
 * WorkspaceSettingsValue), which the screens service reads when an editor changes what screens play. No key: the
 * defaults (approval off).
 */
export const WORKSPACE_SETTINGS_BUCKET = 'workspace_settings';
export const WorkspaceSettingsValue = z.object({ approvalRequired: z.boolean(), v: z.literal(1) });
export type WorkspaceSettingsValue = z.infer<typeof WorkspaceSettingsValue>;

export const UpdateWorkspaceSettingsRequest = z.object({ approvalRequired: z.boolean() });
export type UpdateWorkspaceSettingsRequest = z.infer<typeof UpdateWorkspaceSettingsRequest>;

/** A rejection's reason, shown to the editor and mailed to them. */
export const PROPOSAL_REASON_MAX = 500;
/** How many proposals one workspace may have waiting at once (a bound on what a runaway client can store). */
export const PROPOSALS_PENDING_MAX = 200;
export const PROPOSAL_PAGE_MAX = 100;

/**
 * The change a proposal would make: the request of the call the editor made, as that call's schema parsed it.
 * `update-screen` waits only when it changes what plays (assignment, opening hours); a rename alone does not wait.
 * `update-group` waits when it changes members, assignment or opening hours.
 */
export const ProposalChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('update-screen'), screenId: Id, request: UpdateScreenRequest }),
  z.object({ kind: z.literal('create-group'), request: CreateGroupRequest }),
  z.object({ kind: z.literal('update-group'), groupId: Id, request: UpdateGroupRequest }),
  z.object({ kind: z.literal('delete-group'), groupId: Id }),
  z.object({ kind: z.literal('group-order'), request: GroupOrderRequest }),
  z.object({ kind: z.literal('bulk'), request: BulkChangeRequest }),
]);
export type ProposalChange = z.infer<typeof ProposalChange>;

export const ProposalStatus = z.enum(['pending', 'approved', 'rejected', 'withdrawn']);
export type ProposalStatus = z.infer<typeof ProposalStatus>;

/** A proposal as the workspace's members see it. Names are read at answer time (never stored words). */
export const Proposal = z.object({
  id: z.string(),
  workspaceId: z.string(),
  proposedBy: z.string(),
  change: ProposalChange,
  /** the screens whose agenda the change would alter (ids), and how many */
  screenIds: z.array(z.string()),
  status: ProposalStatus,
  createdAt: IsoDateTime,
  decidedBy: z.string().nullable(),
  decidedAt: IsoDateTime.nullable(),
  /** a rejection's reason */
  reason: z.string().nullable(),
});
export type Proposal = z.infer<typeof Proposal>;

/**
 * One proposal with what it would do: `diff` of each object it changes (the audit log's difference: before as it is
 * now, after as it would be), and the next 7 days of each screen it touches as they would be if approved now
 * (`agenda`, at most 20 screens; `agendaScreensTotal` counts them all), beside the agenda they have now (`current`).
 */
export const ProposalDetail = z.object({
  proposal: Proposal,
  objects: z.array(
    z.object({
      type: z.enum(['screen', 'group', 'group-order']),
      id: z.string(),
      diff: z.array(AuditChange),
    }),
  ),
  agenda: z.array(ScreenAgenda),
  current: z.array(ScreenAgenda),
  agendaScreensTotal: z.number().int().nonnegative(),
});
export type ProposalDetail = z.infer<typeof ProposalDetail>;

export const ProposalList = z.object({ proposals: z.array(Proposal), nextCursor: z.string().nullable() });
export type ProposalList = z.infer<typeof ProposalList>;

export const ProposalListQuery = z.object({
  status: ProposalStatus.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PROPOSAL_PAGE_MAX).default(50),
});
export type ProposalListQuery = z.infer<typeof ProposalListQuery>;

export const ProposalIdParams = z.object({ proposalId: Id });

export const RejectProposalRequest = z.object({
  reason: z
    .string({ error: 'validation.reasonRequired' })
    .trim()
    .min(1, 'validation.reasonRequired')
    .max(PROPOSAL_REASON_MAX, 'validation.reasonTooLong'),
});
export type RejectProposalRequest = z.infer<typeof RejectProposalRequest>;

/**
 * The calls whose change may wait for approval (they also answer 202 ProposalAccepted; routes.ts adds that to each,
 * since their definitions cannot import this module back). Takeovers are not among them: they never wait.
 */
export const ROUTES_THAT_MAY_WAIT = [
  'updateScreen',
  'createScreenGroup',
  'updateScreenGroup',
  'deleteScreenGroup',
  'setScreenGroupOrder',
  'bulkScreenChange',
] as const;

/** The 202 answer of a change that waits for approval instead of being made. */
export const ProposalAccepted = z.object({ proposal: Proposal });
export type ProposalAccepted = z.infer<typeof ProposalAccepted>;

/** What the changes that may wait answer instead of their own body (RouteDef.alsoAnswers). */
export const waitsForApproval = {
  status: 202,
  description:
    'The workspace asks for approval and the caller is an editor: the change was checked in full and waits as a ' +
    'proposal (nothing played changes until a publisher or admin approves it). PROPOSALS_PENDING_LIMIT (409) when ' +
    `${PROPOSALS_PENDING_MAX} already wait.`,
  response: ProposalAccepted,
};

const decideRefusals =
  ' Refusals: PROPOSAL_NOT_FOUND (404), PROPOSAL_DECIDED (409, approved, rejected or withdrawn already), ' +
  "PROPOSAL_OWN (403, one does not decide one's own proposal); nothing changes.";

export const approvalRoutes = defineRoutes([
  {
    id: 'listProposals',
    method: 'get',
    path: '/api/screens/proposals',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: "The workspace's proposals, newest first (filter by status)",
    query: ProposalListQuery,
    response: ProposalList,
  },
  {
    id: 'getProposal',
    method: 'get',
    path: '/api/screens/proposals/:proposalId',
    service: 'screens',
    auth: 'session',
    action: 'screens.read',
    summary: 'One proposal: the difference it would make to each object and the agenda it would give its screens',
    params: ProposalIdParams,
    response: ProposalDetail,
  },
  {
    id: 'approveProposal',
    method: 'post',
    path: '/api/screens/proposals/:proposalId/approve',
    service: 'screens',
    auth: 'session',
    action: 'approvals.decide',
    summary:
      'Approve a proposal: its change is checked again and made as if the editor made it now (the refusals of that ' +
      `change apply: content deleted since, a screen unpaired...; the proposal then stays pending).${decideRefusals}`,
    params: ProposalIdParams,
    response: Proposal,
  },
  {
    id: 'rejectProposal',
    method: 'post',
    path: '/api/screens/proposals/:proposalId/reject',
    service: 'screens',
    auth: 'session',
    action: 'approvals.decide',
    summary: `Reject a proposal with a reason (mailed to the editor).${decideRefusals}`,
    params: ProposalIdParams,
    body: RejectProposalRequest,
    response: Proposal,
  },
  {
    id: 'withdrawProposal',
    method: 'delete',
    path: '/api/screens/proposals/:proposalId',
    service: 'screens',
    auth: 'session',
    action: 'screens.assign',
    summary:
      'Withdraw a pending proposal (its editor, or an owner or admin). PROPOSAL_NOT_FOUND, PROPOSAL_DECIDED, ' +
      "FORBIDDEN_ROLE (another editor's proposal)",
    params: ProposalIdParams,
    response: Proposal,
  },
]);

import { z } from 'zod';
import { WorkspaceRole } from '../identity';
import { defineRoutes } from '../route-def';
import { Email, EmptyBody, IsoDateTime, OkResponse } from '../validation';
import { UpdateWorkspaceSettingsRequest } from './approvals';
import { Locale } from './user';

/** How long an invitation's link can be accepted. */
export const INVITATION_VALID_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_VALID_DAYS * 24 * 3600 * 1000;
/**
 * The NATS key-value bucket account mirrors each non-owner membership into (key `<workspaceId>.<userId>`, value
 * `{"role","v"}`; a removal deletes the key), which every gateway watches to resolve the workspace a call acts in.
 */
export const WORKSPACE_MEMBERS_BUCKET = 'workspace_members';
/** The value stored under a membership's key in WORKSPACE_MEMBERS_BUCKET (`v`: the value's format, 1). */
export const WorkspaceMembershipValue = z.object({ role: WorkspaceRole, v: z.literal(1) });
export type WorkspaceMembershipValue = z.infer<typeof WorkspaceMembershipValue>;

/** A role one can be invited to or given: every role but owner (a workspace's owner is its account's person). */
export const InvitableRole = WorkspaceRole.exclude(['owner'], { error: 'validation.roleInvalid' });
export type InvitableRole = z.infer<typeof InvitableRole>;

export const WorkspaceIdParams = z.object({ id: z.string().min(1) });
export const WorkspaceMemberParams = z.object({ id: z.string().min(1), userId: z.string().min(1) });
export const WorkspaceInvitationParams = z.object({ id: z.string().min(1), invitationId: z.string().min(1) });
export const InvitationTokenParams = z.object({ token: z.string().min(1) });

/** A workspace the caller belongs to, with their role there. Its id is its owner's user id. */
export const WorkspaceSummary = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  role: WorkspaceRole,
  /** an editor's change of what screens play waits for a publisher's or admin's approval */
  approvalRequired: z.boolean(),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;
export const WorkspaceList = z.object({ workspaces: z.array(WorkspaceSummary) });
export type WorkspaceList = z.infer<typeof WorkspaceList>;

/** A member of a workspace as its members see them (the owner included, role owner). */
export const WorkspaceMember = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: WorkspaceRole,
  addedAt: IsoDateTime,
});
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;
export const WorkspaceMemberList = z.object({ members: z.array(WorkspaceMember) });
export type WorkspaceMemberList = z.infer<typeof WorkspaceMemberList>;

export const UpdateWorkspaceMemberRequest = z.object({ role: InvitableRole });
export type UpdateWorkspaceMemberRequest = z.infer<typeof UpdateWorkspaceMemberRequest>;

/**
 * An invitation by e-mail. `language`: that of the mail; absent, the invitee's account's language when the address
 * has an account, else the inviter's.
 */
export const CreateInvitationRequest = z.object({
  email: Email,
  role: InvitableRole,
  language: Locale.optional(),
});
export type CreateInvitationRequest = z.infer<typeof CreateInvitationRequest>;

/** A pending invitation as the workspace's owner and admins see it (never its token). */
export const WorkspaceInvitation = z.object({
  id: z.string(),
  workspaceId: z.string(),
  email: z.string(),
  role: InvitableRole,
  language: Locale,
  invitedBy: z.string(),
  createdAt: IsoDateTime,
  expiresAt: IsoDateTime,
});
export type WorkspaceInvitation = z.infer<typeof WorkspaceInvitation>;
export const WorkspaceInvitationList = z.object({ invitations: z.array(WorkspaceInvitation) });
export type WorkspaceInvitationList = z.infer<typeof WorkspaceInvitationList>;

/** What an invitation's link offers (public: whoever holds the link got it by mail). */
export const InvitationOffer = z.object({
  workspaceId: z.string(),
  workspaceName: z.string(),
  inviter: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }),
  /** the address invited: the one to sign in or register with */
  email: z.string(),
  role: InvitableRole,
  language: Locale,
  expiresAt: IsoDateTime,
});
export type InvitationOffer = z.infer<typeof InvitationOffer>;

export const AcceptInvitationResponse = z.object({ workspace: WorkspaceSummary });
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

export const workspaceRoutes = defineRoutes([
  {
    id: 'listWorkspaces',
    method: 'get',
    path: '/api/workspaces',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary: "The caller's workspaces (their own first) with their role in each",
    response: WorkspaceList,
  },
  {
    id: 'listWorkspaceMembers',
    method: 'get',
    path: '/api/workspaces/:id/members',
    service: 'account',
    auth: 'session',
    action: 'workspace.read',
    summary: "A workspace's members and their roles (any member; others: NOT_A_MEMBER)",
    params: WorkspaceIdParams,
    response: WorkspaceMemberList,
  },
  {
    id: 'updateWorkspaceSettings',
    method: 'put',
    path: '/api/workspaces/:id/settings',
    service: 'account',
    auth: 'session',
    action: 'workspace.settings',
    summary:
      "Change a workspace's settings (owner and admins): approvalRequired makes an editor's change of what screens " +
      'play wait for approval (proposals already waiting stay; turning it off does not approve them)',
    params: WorkspaceIdParams,
    body: UpdateWorkspaceSettingsRequest,
    response: WorkspaceSummary,
  },
  {
    id: 'updateWorkspaceMember',
    method: 'patch',
    path: '/api/workspaces/:id/members/:userId',
    service: 'account',
    auth: 'session',
    action: 'workspace.members',
    summary: "Change a member's role (owner and admins; the owner's row: OWNER_IS_FIXED)",
    params: WorkspaceMemberParams,
    body: UpdateWorkspaceMemberRequest,
    response: WorkspaceMember,
  },
  {
    id: 'removeWorkspaceMember',
    method: 'delete',
    path: '/api/workspaces/:id/members/:userId',
    service: 'account',
    auth: 'session',
    // leaving is the person's own act; removing another is decided in account against the stored membership
    action: 'personal',
    summary: 'Remove a member (owner and admins), or leave (oneself); the owner cannot be removed (OWNER_IS_FIXED)',
    params: WorkspaceMemberParams,
    response: OkResponse,
  },
  {
    id: 'createWorkspaceInvitation',
    method: 'post',
    path: '/api/workspaces/:id/invitations',
    service: 'account',
    auth: 'session',
    action: 'workspace.members',
    summary: "Invite by e-mail, in the invitee's language, to a role other than owner (owner and admins); valid 7 days",
    params: WorkspaceIdParams,
    body: CreateInvitationRequest,
    response: WorkspaceInvitation,
  },
  {
    id: 'listWorkspaceInvitations',
    method: 'get',
    path: '/api/workspaces/:id/invitations',
    service: 'account',
    auth: 'session',
    action: 'workspace.members',
    summary: "A workspace's pending invitations (owner and admins)",
    params: WorkspaceIdParams,
    response: WorkspaceInvitationList,
  },
  {
    id: 'revokeWorkspaceInvitation',
    method: 'delete',
    path: '/api/workspaces/:id/invitations/:invitationId',
    service: 'account',
    auth: 'session',
    action: 'workspace.members',
    summary:
      'Revoke a pending invitation (owner and admins): its link then answers INVITATION_NOT_FOUND; one accepted already, even at the same moment, answers INVITATION_ALREADY_ACCEPTED',
    params: WorkspaceInvitationParams,
    response: OkResponse,
  },
  {
    id: 'getInvitation',
    method: 'get',
    path: '/api/invitations/:token',
    service: 'account',
    auth: 'public',
    summary: "What an invitation's link offers: the workspace, who invited, the role, the address and the expiry",
    params: InvitationTokenParams,
    response: InvitationOffer,
  },
  {
    id: 'acceptInvitation',
    method: 'post',
    path: '/api/invitations/:token/accept',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary:
      "Join the workspace: the signed-in person's verified address must be the invited one (INVITATION_EMAIL_MISMATCH)",
    params: InvitationTokenParams,
    body: EmptyBody,
    response: AcceptInvitationResponse,
  },
]);

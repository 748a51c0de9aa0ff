// Workspaces, their members and invitations. The workspace is the one the path names; each use case checks the
// caller's membership row there itself (the identity header's workspace and role are not what these calls decide by,
// beyond the route's action, which the gateway and `session` ask of the role the call acts with, as for every route).
import {
  CreateInvitationRequest,
  EmptyBody,
  InvitationTokenParams,
  UpdateWorkspaceMemberRequest,
  UpdateWorkspaceSettingsRequest,
  WorkspaceIdParams,
  WorkspaceInvitationParams,
  WorkspaceMemberParams,
} from '@pagecast/contracts';
import type { Action } from '@pagecast/policy';
import { type Actor, auditActor, parseWith } from '@pagecast/service-kit';
import type { Request, Response, Router } from 'express';
import type { Locale } from '../domain';
import type { AccountDeps } from '../use-cases/deps';
import { acceptInvitation } from '../use-cases/accept-invitation';
import { getInvitation } from '../use-cases/get-invitation';
import { inviteToWorkspace } from '../use-cases/invite-to-workspace';
import { listWorkspaceInvitations } from '../use-cases/list-workspace-invitations';
import { listWorkspaceMembers } from '../use-cases/list-workspace-members';
import { listWorkspaces } from '../use-cases/list-workspaces';
import { removeWorkspaceMember } from '../use-cases/remove-workspace-member';
import { revokeWorkspaceInvitation } from '../use-cases/revoke-workspace-invitation';
import { updateWorkspaceMember } from '../use-cases/update-workspace-member';
import { updateWorkspaceSettings } from '../use-cases/update-workspace-settings';

export function mountWorkspaceRoutes(
  router: Router,
  opts: {
    deps: AccountDeps;
    /** the caller, allowed the route's action, its session still alive */
    session: (req: Request, action: Action) => Promise<Actor>;
    /** the language of a mail this request triggers, given the account's stored one */
    localeOf: (req: Request) => (stored: string | null) => Locale;
  },
): void {
  const { deps, session, localeOf } = opts;
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  router.get('/api/workspaces', async (req, res) => {
    const { userId } = await session(req, 'personal');
    noStore(res);
    res.json(await listWorkspaces(deps, userId));
  });

  router.get('/api/workspaces/:id/members', async (req, res) => {
    const { userId } = await session(req, 'workspace.read');
    const { id } = parseWith(WorkspaceIdParams, req.params);
    noStore(res);
    res.json(await listWorkspaceMembers(deps, id, userId));
  });

  router.put('/api/workspaces/:id/settings', async (req, res) => {
    const caller = await session(req, 'workspace.settings');
    const { id } = parseWith(WorkspaceIdParams, req.params);
    const input = parseWith(UpdateWorkspaceSettingsRequest, req.body);
    res.json(
      await updateWorkspaceSettings(deps, { ...input, workspaceId: id, callerId: caller.userId }, auditActor(req)),
    );
  });

  router.patch('/api/workspaces/:id/members/:userId', async (req, res) => {
    const caller = await session(req, 'workspace.members');
    const params = parseWith(WorkspaceMemberParams, req.params);
    const { role } = parseWith(UpdateWorkspaceMemberRequest, req.body);
    res.json(
      await updateWorkspaceMember(
        deps,
        {
          workspaceId: params.id,
          userId: params.userId,
          callerId: caller.userId,
          role,
        },
        auditActor(req),
      ),
    );
  });

  router.delete('/api/workspaces/:id/members/:userId', async (req, res) => {
    const caller = await session(req, 'personal');
    const params = parseWith(WorkspaceMemberParams, req.params);
    res.json(
      await removeWorkspaceMember(
        deps,
        { workspaceId: params.id, userId: params.userId, callerId: caller.userId },
        auditActor(req),
      ),
    );
  });

  router.post('/api/workspaces/:id/invitations', async (req, res) => {
    const caller = await session(req, 'workspace.members');
    const { id } = parseWith(WorkspaceIdParams, req.params);
    const input = parseWith(CreateInvitationRequest, req.body);
    res.json(
      await inviteToWorkspace(
        deps,
        { ...input, workspaceId: id, callerId: caller.userId },
        localeOf(req),
        auditActor(req),
      ),
    );
  });

  router.get('/api/workspaces/:id/invitations', async (req, res) => {
    const { userId } = await session(req, 'workspace.members');
    const { id } = parseWith(WorkspaceIdParams, req.params);
    noStore(res);
    res.json(await listWorkspaceInvitations(deps, id, userId));
  });

  router.delete('/api/workspaces/:id/invitations/:invitationId', async (req, res) => {
    const caller = await session(req, 'workspace.members');
    const params = parseWith(WorkspaceInvitationParams, req.params);
    res.json(
      await revokeWorkspaceInvitation(
        deps,
        {
          workspaceId: params.id,
          invitationId: params.invitationId,
          callerId: caller.userId,
        },
        auditActor(req),
      ),
    );
  });

  router.get('/api/invitations/:token', async (req, res) => {
    const { token } = parseWith(InvitationTokenParams, req.params);
    noStore(res);
    res.json(await getInvitation(deps, token));
  });

  router.post('/api/invitations/:token/accept', async (req, res) => {
    const { userId } = await session(req, 'personal');
    const { token } = parseWith(InvitationTokenParams, req.params);
    parseWith(EmptyBody, req.body);
    res.json(await acceptInvitation(deps, token, userId, auditActor(req)));
  });
}

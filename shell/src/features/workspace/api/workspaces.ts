// The account service's workspace calls (packages/contracts api/workspaces.ts). The lists are keyed by the workspace
// they are of, so that a switch never shows one workspace's people under another's name.
import type {
  AcceptInvitationResponse,
  CreateInvitationRequest,
  InvitableRole,
  InvitationOffer,
  UpdateWorkspaceSettingsRequest,
  WorkspaceInvitation,
  WorkspaceInvitationList,
  WorkspaceList,
  WorkspaceMember,
  WorkspaceMemberList,
  WorkspaceSummary,
} from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { workspacesQueryKey } from '@pagecast/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

// the person's workspaces with their role in each: @pagecast/ui's, which pages of the remotes read too
export { workspacesQuery, workspacesQueryKey } from '@pagecast/ui';

const membersPath = (id: string) => `/api/workspaces/${encodeURIComponent(id)}/members`;
const invitationsPath = (id: string) => `/api/workspaces/${encodeURIComponent(id)}/invitations`;

export const membersQuery = (workspaceId: string) =>
  queryOptions<WorkspaceMemberList>({ queryKey: [membersPath(workspaceId)] });

export const invitationsQuery = (workspaceId: string) =>
  queryOptions<WorkspaceInvitationList>({ queryKey: [invitationsPath(workspaceId)] });

/** What an invitation's link offers (public); its errors are the page's to show. */
export const invitationQuery = (token: string) =>
  queryOptions<InvitationOffer>({ queryKey: [`/api/invitations/${encodeURIComponent(token)}`] });

export function useInvite(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateInvitationRequest) =>
      (await (await apiRequest('POST', invitationsPath(workspaceId), body)).json()) as WorkspaceInvitation,
    onSuccess: () => client.invalidateQueries({ queryKey: [invitationsPath(workspaceId)] }),
  });
}

export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (invitationId: string) =>
      apiRequest('DELETE', `${invitationsPath(workspaceId)}/${encodeURIComponent(invitationId)}`),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: [invitationsPath(workspaceId)] });
      // refused INVITATION_ALREADY_ACCEPTED: the invitee has just joined, so the member list has them now
      return client.invalidateQueries({ queryKey: [membersPath(workspaceId)] });
    },
  });
}

export function useChangeRole(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: InvitableRole }) =>
      (await (
        await apiRequest('PATCH', `${membersPath(workspaceId)}/${encodeURIComponent(userId)}`, { role })
      ).json()) as WorkspaceMember,
    onSettled: () => client.invalidateQueries({ queryKey: [membersPath(workspaceId)] }),
  });
}

/** Removes a member, or (the person's own id) leaves the workspace. */
export function useRemoveMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      apiRequest('DELETE', `${membersPath(workspaceId)}/${encodeURIComponent(userId)}`),
    onSettled: () => client.invalidateQueries({ queryKey: [membersPath(workspaceId)] }),
  });
}

export function useAcceptInvitation(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest('POST', `/api/invitations/${encodeURIComponent(token)}/accept`, {})
      ).json()) as AcceptInvitationResponse,
    onSuccess: () => client.invalidateQueries({ queryKey: workspacesQueryKey }),
  });
}

/**
 * PUT /api/workspaces/:id/settings (owner and admins): the answer is the workspace as listed, written into the list
 * at once (every page reads the setting from it, the player's forms among them), then the list is read again.
 */
export function useUpdateWorkspaceSettings(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateWorkspaceSettingsRequest) =>
      (await (
        await apiRequest('PUT', `/api/workspaces/${encodeURIComponent(workspaceId)}/settings`, body)
      ).json()) as WorkspaceSummary,
    onSuccess: (saved) =>
      client.setQueryData<WorkspaceList>(workspacesQueryKey, (list) =>
        list ? { workspaces: list.workspaces.map((w) => (w.id === saved.id ? { ...w, ...saved } : w)) } : list,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: workspacesQueryKey }),
  });
}

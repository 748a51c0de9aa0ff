// The person's role in the workspace the page acts in, and what it allows (@pagecast/policy, the table the gateway
// and the services decide with): pages leave out the controls the server would refuse. Only a courtesy: the server
// refuses anyway.
import type { WorkspaceList, WorkspaceRole } from '@pagecast/contracts';
import { type Action, can } from '@pagecast/policy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from './current-user';
import { useCurrentWorkspace } from './workspace';

export const workspacesQueryKey = ['/api/workspaces'] as const;

/** GET /api/workspaces: the person's workspaces, their own first, with their role in each. */
export const workspacesQuery = queryOptions<WorkspaceList>({ queryKey: workspacesQueryKey });

/**
 * The role in the workspace the page acts in: owner in the person's own; in another, the listed role (undefined
 * until the list has come, or signed out).
 */
export function useWorkspaceRole(): WorkspaceRole | undefined {
  const { user } = useAuth();
  const chosen = useCurrentWorkspace();
  const inAnother = Boolean(user && chosen && chosen !== user.id);
  const list = useQuery({ ...workspacesQuery, enabled: inAnother });
  if (!user) return undefined;
  if (!inAnother) return 'owner';
  return list.data?.workspaces.find((w) => w.id === chosen)?.role;
}

/** Whether the role in the workspace the page acts in allows `action` (false until the role is known). */
export function useWorkspaceCan(action: Action): boolean {
  const role = useWorkspaceRole();
  return role ? can(role, action) : false;
}

import type { WorkspaceRole, WorkspaceSummary } from '@pagecast/contracts';
import { useAuth, useCurrentWorkspace } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { workspacesQuery } from '../api/workspaces';

export interface ActiveWorkspace {
  /** the workspace's id: the chosen one, else the person's own (their user id) */
  id: string;
  /** its name, once the list has come */
  name: string | undefined;
  /** the person's role there (their own workspace: owner; another, until the list has come: undefined) */
  role: WorkspaceRole | undefined;
  own: boolean;
  /** whether an editor's change of what screens play waits for approval there (undefined until the list has come) */
  approvalRequired: boolean | undefined;
  /** the person's workspaces (empty until read) */
  workspaces: WorkspaceSummary[];
}

/** The workspace the page acts in, and the person's role there. */
export function useActiveWorkspace(): ActiveWorkspace | undefined {
  const { user } = useAuth();
  const chosen = useCurrentWorkspace();
  const list = useQuery({ ...workspacesQuery, enabled: Boolean(user) });
  if (!user) return undefined;
  const id = chosen ?? user.id;
  const workspaces = list.data?.workspaces ?? [];
  const found = workspaces.find((w) => w.id === id);
  const own = id === user.id;
  return {
    id,
    name: found?.name,
    role: found?.role ?? (own ? 'owner' : undefined),
    approvalRequired: found?.approvalRequired,
    own,
    workspaces,
  };
}

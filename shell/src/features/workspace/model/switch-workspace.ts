// Switching the workspace the page acts in: the calls then name it (@pagecast/ui's workspace module), the address
// names it (`?w=<id>`, kept across navigation by WorkspaceKeeper, so a reload or a shared link stays there), and
// every cached read of the previous workspace is dropped and read again.
import { currentWorkspace, setCurrentWorkspace, WORKSPACE_PARAM } from '@pagecast/ui';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@pagecast/router';
import { useCallback } from 'react';
import { workspacesQueryKey } from '../api/workspaces';

/** Reads that are the person's whatever the workspace: kept on a switch. */
const PERSONAL_READS = new Set<unknown>(['/api/auth/user', workspacesQueryKey[0]]);

/** Drops every cached read of a workspace (the ones on screen are read again at once). */
export function resetWorkspaceReads(client: QueryClient): Promise<void> {
  return client.resetQueries({ predicate: (query) => !PERSONAL_READS.has(query.queryKey[0]) });
}

/** `search` with the workspace parameter set to `id`, or removed (the person's own). */
export function searchWithWorkspace(search: string, id: string | undefined): string {
  const params = new URLSearchParams(search);
  if (id) params.set(WORKSPACE_PARAM, id);
  else params.delete(WORKSPACE_PARAM);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Switches to a workspace (`ownId` or undefined: the person's own), optionally going to another page. Names it in
 * the address, drops the previous workspace's reads.
 *
 * Another workspace is only named in the address: WorkspaceKeeper switches the calls (and drops the reads) once that
 * address is shown. Setting it here too re-rendered the keeper at once (the workspace store updates synchronously)
 * while the navigation, a transition, was still pending: the keeper saw the page being left without `?w=`, put it
 * back there, and that replaced the navigation (an accepted invitation stayed on its page instead of the welcome).
 * One's own workspace has no `?w=`, so it is set here: the keeper then sees the old address naming the workspace
 * just left, which it leaves alone.
 */
export function useSwitchWorkspace(ownId: string | undefined) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (id: string | undefined, to?: string) => {
      const next = id && id !== ownId ? id : undefined;
      const target = {
        pathname: to ?? location.pathname,
        search: searchWithWorkspace(to ? '' : location.search, next),
      };
      if (next) {
        navigate(target);
        return;
      }
      const changed = currentWorkspace() !== undefined;
      setCurrentWorkspace(undefined);
      navigate(target);
      if (changed) void resetWorkspaceReads(client);
    },
    [client, navigate, location.pathname, location.search, ownId],
  );
}

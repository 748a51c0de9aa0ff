import { useTranslation } from '@pagecast/i18n';
import { useLocation, useNavigate } from '@pagecast/router';
import {
  currentUserQueryKey,
  currentWorkspace,
  onWorkspaceRefused,
  setCurrentWorkspace,
  toast,
  useAuth,
  useCurrentWorkspace,
  WORKSPACE_PARAM,
} from '@pagecast/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { workspacesQueryKey } from '../api/workspaces';
import { resetWorkspaceReads, searchWithWorkspace } from '../model/switch-workspace';
import { canWatch, watchWorkspace } from '../model/workspace-watch';

/**
 * Keeps the address and the calls naming the same workspace, in the signed-in frame: a page opened from a link
 * without `?w=` gets it back (links inside the app do not carry it), an address naming another workspace (a
 * shared link, the back button) switches to it, and a call refused NOT_A_MEMBER (the person was removed, or the
 * link is not theirs) returns to the person's own workspace with a word why. While the page acts in another's
 * workspace, a live stream naming it brings the same return within moments of a removal, with no call of the page's
 * own, and a changed role to the page (model/workspace-watch.ts).
 */
export function WorkspaceKeeper() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const workspace = useCurrentWorkspace();
  const here = useRef(location);
  here.current = location;
  // none at first: an address naming a workspace the calls do not name yet switches to it
  const lastInAddress = useRef<string | null>(null);

  useEffect(() => {
    const inAddress = new URLSearchParams(location.search).get(WORKSPACE_PARAM) || null;
    const previous = lastInAddress.current;
    lastInAddress.current = inAddress;
    if (inAddress && inAddress !== previous && inAddress !== workspace) {
      setCurrentWorkspace(inAddress);
      void resetWorkspaceReads(client);
    } else if (!inAddress && workspace) {
      // the page's state goes with it (a first sign-in's owed welcome, carried to an invitation)
      navigate(
        { pathname: location.pathname, search: searchWithWorkspace(location.search, workspace), hash: location.hash },
        { replace: true, state: location.state },
      );
    }
  }, [location.pathname, location.search, location.hash, location.state, workspace, client, navigate]);

  const backToOwn = useCallback(
    (refused: string) => {
      if (currentWorkspace() !== refused) return; // another call already brought the person back
      setCurrentWorkspace(undefined);
      const { pathname, search } = here.current;
      navigate({ pathname, search: searchWithWorkspace(search, undefined) }, { replace: true });
      void resetWorkspaceReads(client);
      void client.invalidateQueries({ queryKey: workspacesQueryKey });
      toast({
        title: t('workspace.refused.title'),
        description: t('workspace.refused.description'),
        variant: 'destructive',
      });
    },
    [client, navigate, t],
  );
  useEffect(() => onWorkspaceRefused(backToOwn), [backToOwn]);

  // the latest handler, read by the watch without restarting its stream when the language or page changes
  const onRemoved = useRef(backToOwn);
  onRemoved.current = backToOwn;
  const userId = user?.id;
  useEffect(() => {
    if (!userId || !workspace || workspace === userId || !canWatch()) return;
    return watchWorkspace(workspace, {
      onRemoved: (id) => onRemoved.current(id),
      // the role shown and allowed follows the account's list (useWorkspaceRole reads it)
      onList: (list) => client.setQueryData(workspacesQueryKey, list),
      onSignedOut: () => void client.invalidateQueries({ queryKey: currentUserQueryKey }),
    });
  }, [userId, workspace, client]);
  return null;
}

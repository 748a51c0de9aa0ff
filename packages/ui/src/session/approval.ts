// Whether a change of what screens play waits for approval in the workspace the page acts in: the workspace asks
// for it (its setting approvalRequired) and the person's role changes screens but does not decide (an editor). Pages
// say so before the person saves; the server decides (it answers 202 with the proposal).
import { can } from '@pagecast/policy';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from './current-user';
import { useCurrentWorkspace } from './workspace';
import { useWorkspaceRole, workspacesQuery } from './workspace-role';

/** The path of the proposals page, and of one proposal (mf_player's routes). */
export const PROPOSALS_PATH = '/screens/proposals';
export const proposalPath = (id: string) => `${PROPOSALS_PATH}/${encodeURIComponent(id)}`;

/** True when this person's change of what screens play would wait as a proposal here. */
export function useChangesWaitForApproval(): boolean {
  const { user } = useAuth();
  const chosen = useCurrentWorkspace();
  const role = useWorkspaceRole();
  const waits = Boolean(role && can(role, 'screens.assign') && !can(role, 'approvals.decide'));
  // only a role that would wait needs the setting (an owner never does: their own workspace is never read here)
  const list = useQuery({ ...workspacesQuery, enabled: waits && Boolean(user) });
  if (!waits || !user) return false;
  const id = chosen ?? user.id;
  return list.data?.workspaces.find((w) => w.id === id)?.approvalRequired === true;
}

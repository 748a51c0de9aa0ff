// The fleet calls: groups, one change for many screens, takeovers, their templates and log, the agenda.
// Reads go through the default fetcher (the key is the path); every write reads the fleet again.
import type {
  AlertRules,
  BulkChangeRequest,
  CreateGroupRequest,
  GroupAgenda,
  ScreenAgenda,
  ScreenGroup,
  ScreenGroupList,
  StartTakeoverRequest,
  Takeover,
  TakeoverLogEntry,
  TakeoverTemplate,
  TakeoverTemplateRequest,
  UpdateGroupRequest,
} from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type MayWait, refreshProposals, sendMayWait } from '../../../lib/approval/proposals-api';
import { takeoversKey } from '../../../lib/takeovers';

export { fleetScreensQuery } from '../../../lib/fleet-screens';
export { takeoversKey, takeoversQuery } from '../../../lib/takeovers';

export const groupsKey = ['/api/screens/groups'] as const;
export const takeoverLogKey = ['/api/screens/takeovers/log'] as const;
export const templatesKey = ['/api/screens/takeover-templates'] as const;

export const groupsQuery = queryOptions<ScreenGroupList>({ queryKey: groupsKey });
export const takeoverLogQuery = queryOptions<TakeoverLogEntry[]>({ queryKey: takeoverLogKey });
export const templatesQuery = queryOptions<TakeoverTemplate[]>({ queryKey: templatesKey });
export const alertRulesKey = ['/api/screens/alert-rules'] as const;
/** GET /api/screens/alert-rules: the member's disaster alert rules (the defaults until saved). */
export const alertRulesQuery = queryOptions<AlertRules>({ queryKey: alertRulesKey });
export const agendaQuery = (target: { kind: 'screen' | 'group'; id: string }) =>
  queryOptions<ScreenAgenda | GroupAgenda>({
    queryKey: [
      target.kind === 'screen'
        ? `/api/screens/${encodeURIComponent(target.id)}/agenda`
        : `/api/screens/groups/${encodeURIComponent(target.id)}/agenda`,
    ],
  });

const send = async <T>(method: string, url: string, body?: unknown): Promise<T> =>
  (await (await apiRequest(method, url, body)).json()) as T;

/** A write that changes what screens play: the screens, groups, takeovers and log are read again afterwards. */
function useFleetMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        ...[['/api/screens'], groupsKey, takeoversKey, takeoverLogKey, templatesKey].map((queryKey) =>
          qc.invalidateQueries({ queryKey }),
        ),
        // a change may have waited as a proposal instead (the pending count grows)
        refreshProposals(qc),
      ]),
  });
}

const groupPath = (id: string) => `/api/screens/groups/${encodeURIComponent(id)}`;
// The changes of what screens play that may wait for approval (202 with a proposal): their callers say which.
export const useCreateGroup = () =>
  useFleetMutation((body: Partial<CreateGroupRequest> & { name: string }) =>
    sendMayWait<ScreenGroup>('POST', '/api/screens/groups', body),
  );
export const useUpdateGroup = () =>
  useFleetMutation((input: { id: string; body: UpdateGroupRequest }) =>
    sendMayWait<ScreenGroup>('PUT', groupPath(input.id), input.body),
  );
export const useDeleteGroup = () => useFleetMutation((id: string) => sendMayWait<unknown>('DELETE', groupPath(id)));
export const useOrderGroups = () =>
  useFleetMutation((groupIds: string[]) =>
    sendMayWait<ScreenGroupList>('PUT', '/api/screens/groups/order', { groupIds }),
  );
export const useBulkChange = () =>
  useFleetMutation(
    (body: BulkChangeRequest): Promise<MayWait<{ screenIds?: string[] }>> =>
      sendMayWait('POST', '/api/screens/bulk', body),
  );
export const useStartTakeover = () =>
  useFleetMutation((body: StartTakeoverRequest) => send<Takeover>('POST', '/api/screens/takeovers', body));
export const useEndTakeover = () =>
  useFleetMutation((id: string) => send<Takeover>('DELETE', `/api/screens/takeovers/${encodeURIComponent(id)}`));
export const useSaveTemplate = () =>
  useFleetMutation((body: TakeoverTemplateRequest) => send('POST', '/api/screens/takeover-templates', body));
export const useDeleteTemplate = () =>
  useFleetMutation((id: string) => send('DELETE', `/api/screens/takeover-templates/${encodeURIComponent(id)}`));

/** PUT /api/screens/alert-rules: every rule at once. */
export function useSaveAlertRules() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rules: AlertRules) => send<AlertRules>('PUT', '/api/screens/alert-rules', rules),
    onSuccess: (saved) => qc.setQueryData(alertRulesKey, saved),
  });
}

// A proposal in the reader's words: what kind of change, of which screen or group, by whom. Proposals hold codes
// and ids only; names come from the workspace's members and the fleet's lists, read at answer time.
import type { Proposal, ScreenGroup, WorkspaceMemberList } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { personName, useAuth, useCurrentWorkspace } from '@pagecast/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fleetScreensQuery } from '../../../lib/fleet-screens';
import { groupsQuery } from '../../../lib/health/api/health-api';
import { useNames } from '../../../lib/use-names';

/** GET /api/workspaces/:id/members: who the proposers and deciders are. */
const membersQuery = (workspaceId: string) =>
  queryOptions<WorkspaceMemberList>({ queryKey: [`/api/workspaces/${encodeURIComponent(workspaceId)}/members`] });

/** The statuses in the list's filter, pending first (what waits for a decision). */
export const STATUS_ORDER = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

/** Pending first, then newest first (a list of every status). */
export function pendingFirst(list: readonly Proposal[]): Proposal[] {
  return [...list].sort(
    (a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || b.createdAt.localeCompare(a.createdAt),
  );
}

export function useProposalWords() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const workspaceId = useCurrentWorkspace() ?? user?.id ?? '';
  const members = useQuery({ ...membersQuery(workspaceId), enabled: Boolean(workspaceId) });
  const screens = useQuery(fleetScreensQuery);
  const names = useNames();
  const groups = useQuery(groupsQuery);
  const groupList: ScreenGroup[] = groups.data ?? [];
  /** a member's name; one who has left since is "a former member" */
  const person = (userId: string | null) => {
    if (!userId) return '';
    const m = members.data?.members.find((x) => x.userId === userId);
    return m ? personName(m, i18n.language) : t('approvals.formerMember');
  };
  const screen = (id: string) => screens.data?.find((s) => s.id === id)?.name ?? t('fleet.unknownScreen');
  const group = (id: string) => groupList.find((g) => g.id === id)?.name ?? t('fleet.unknownGroup');
  /** the change in a line: its kind and what it is of */
  const change = (p: Proposal) => {
    const c = p.change;
    switch (c.kind) {
      case 'update-screen':
        return t('approvals.kinds.update-screen', { name: screen(c.screenId) });
      case 'create-group':
        return t('approvals.kinds.create-group', { name: c.request.name });
      case 'update-group':
        return t('approvals.kinds.update-group', { name: group(c.groupId) });
      case 'delete-group':
        return t('approvals.kinds.delete-group', { name: group(c.groupId) });
      case 'group-order':
        return t('approvals.kinds.group-order');
      case 'bulk':
        return t('approvals.kinds.bulk', { change: t(`fleet.bulk.kinds.${c.request.change.kind}`) });
    }
  };
  /** an object of the difference by its name */
  const object = (type: 'screen' | 'group' | 'group-order', id: string) =>
    type === 'screen'
      ? t('approvals.objects.screen', { name: screen(id) })
      : type === 'group'
        ? t('approvals.objects.group', { name: group(id) })
        : t('approvals.objects.group-order');
  /** a value of a difference named, when it is an id the page can name (never an id shown where a name exists) */
  const value = (path: readonly string[], v: unknown): string | undefined => {
    const key = path.at(-1) ?? '';
    const ids = (fn: (id: string) => string) =>
      Array.isArray(v) && v.every((x) => typeof x === 'string')
        ? new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(v.map(fn))
        : undefined;
    if (typeof v === 'string') {
      if (key === 'kind' && ['none', 'playlist', 'file', 'schedule'].includes(v)) return t(`screens.kind.${v}`);
      if (key === 'playlistId' || key === 'defaultPlaylistId') return names.playlist(v);
      if (key === 'fileId') return names.file(v);
      if (key === 'groupId') return group(v);
      if (key === 'screenId') return screen(v);
    }
    if (key === 'screenIds') return ids(screen);
    if (key === 'groupIds') return ids(group);
    return undefined;
  };
  /** a field's path in words: each key by its name (an unknown one as itself), a list's item by its number */
  const field = (path: readonly string[]) =>
    path
      .map((key) => (/^\d+$/.test(key) ? String(Number(key) + 1) : t(`approvals.fields.${key}`, { defaultValue: key })))
      .join(' / ');
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  // the names read (members, screens, groups, playlists, files): until then a name would read as "removed"
  const ready = !members.isLoading && !screens.isLoading && !groups.isLoading && names.ready;
  return { person, change, object, value, field, ready, when, screen, groups: groupList, screens: screens.data ?? [] };
}

// The workspace's audit log (packages/contracts api/audit.ts): pages of entries, newest first, and the CSV export.
import type { AuditAction, AuditObjectType, AuditPage } from '@pagecast/contracts';
import { apiFetch, HttpError, noteServerRead } from '@pagecast/ui';
import { infiniteQueryOptions } from '@tanstack/react-query';

/** The page's filters (all optional); `from` and `to` are ISO moments, both ends included. */
export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
  objectType?: AuditObjectType;
  from?: string;
  to?: string;
}

const auditPath = (workspaceId: string, suffix = '') =>
  `/api/workspaces/${encodeURIComponent(workspaceId)}/audit${suffix}`;

/** The query string of the filters (and a page's cursor), in a fixed order so that equal filters share a cache key. */
export function auditSearch(filter: AuditFilter, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'action', 'objectType', 'from', 'to'] as const) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  if (cursor) params.set('cursor', cursor);
  const search = params.toString();
  return search ? `?${search}` : '';
}

async function readJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await apiFetch(url, { credentials: 'include', signal });
  noteServerRead(res);
  if (!res.ok) throw new HttpError(res.status, res.statusText, await res.text().catch(() => ''));
  return (await res.json()) as T;
}

export const auditQuery = (workspaceId: string, filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: [auditPath(workspaceId), auditSearch(filter)],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      readJson<AuditPage>(`${auditPath(workspaceId)}${auditSearch(filter, pageParam)}`, signal),
    getNextPageParam: (last: AuditPage) => last.nextCursor,
  });

/** The CSV's address with the filters. */
export const auditCsvUrl = (workspaceId: string, filter: AuditFilter) =>
  `${auditPath(workspaceId, '.csv')}${auditSearch(filter)}`;

/**
 * Fetches the CSV and hands it to the browser as a download. Not a plain link: a link sends no header, and the
 * gateway learns the workspace a call acts in only from the X-Pagecast-Workspace header (gateway/README.md), so a
 * member's link would read their own workspace's log instead; apiFetch names it.
 */
export async function downloadAuditCsv(workspaceId: string, filter: AuditFilter, fileName: string): Promise<void> {
  const res = await apiFetch(auditCsvUrl(workspaceId, filter), { credentials: 'include' });
  if (!res.ok) throw new HttpError(res.status, res.statusText, await res.text().catch(() => ''));
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // the click has started the download; the address is no longer needed
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

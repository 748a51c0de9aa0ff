// Which cached reads a live event makes stale (GET /api/events forwards `{ id, type, data }` with ids only).
import { subjects } from '@pagecast/contracts';

export type Stale = { kind: 'playlist'; playlistId: string } | { kind: 'file'; fileId: string } | { kind: 'all' };

/** The reads to refetch for one event; `resync` (after a reconnect, events may have been missed) means all. */
export function staleFor(eventName: string, data: unknown): Stale | null {
  if (eventName === 'resync') return { kind: 'all' };
  const payload = (data as { data?: Record<string, unknown> } | null)?.data ?? {};
  switch (eventName) {
    case subjects.playlistSaved:
    case subjects.playlistDeleted:
      return typeof payload.playlistId === 'string' ? { kind: 'playlist', playlistId: payload.playlistId } : null;
    case subjects.fileUpdated:
    case subjects.fileDeleted:
    case subjects.pageReady:
    case subjects.licenceExpired:
      return typeof payload.fileId === 'string' ? { kind: 'file', fileId: payload.fileId } : null;
    default:
      return null;
  }
}

export const liveEventNames = [
  subjects.playlistSaved,
  subjects.playlistDeleted,
  subjects.fileUpdated,
  subjects.fileDeleted,
  subjects.pageReady,
  subjects.licenceExpired,
  'resync',
] as const;

/** GET /api/events?playlist=…&file=…: the playlist and files being played (the gateway allows 50 ids). */
export function eventsUrl(playlistId: string | null, fileIds: readonly string[]): string {
  const params = new URLSearchParams();
  if (playlistId) params.append('playlist', playlistId);
  for (const id of [...new Set(fileIds)].sort().slice(0, playlistId ? 49 : 50)) params.append('file', id);
  return `/api/events?${params.toString()}`;
}

import type { AccessibleFile, AccessibleFileList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/**
 * GET /api/files/accessible: the member's own files and the ones bought whose licence has not ended, each bought one
 * with its licence's end (licenceExpiresAt). File management's "Purchased" tab and the dashboard read the bought ones
 * from it; mf-player's playlists read the same key; a purchase (mf-marketplace) invalidates it.
 */
export const accessibleFilesQueryKey = ['/api/files/accessible'] as const;

/** A licence that ends within this many days is flagged (File management, dashboard). */
export const LICENCE_ENDING_SOON_DAYS = 3;

const DAY_MS = 86_400_000;

export type PurchasedFile = AccessibleFile & { access: 'purchased'; licenceExpiresAt: string };

/** The bought files of the accessible list, the licence ending first at the top. */
export function purchasedFilesOf(list: AccessibleFileList): PurchasedFile[] {
  return list
    .filter((f): f is PurchasedFile => f.access === 'purchased' && f.licenceExpiresAt !== null)
    .sort((a, b) => Date.parse(a.licenceExpiresAt) - Date.parse(b.licenceExpiresAt));
}

/** Whole days left, counting a started day as one (ends in 2 h: 1 day left); 0 once it has ended. */
export function licenceDaysLeft(expiresAt: string, now: Date = new Date()): number {
  const ms = Date.parse(expiresAt) - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / DAY_MS);
}

/** The licence ends within LICENCE_ENDING_SOON_DAYS days from now (and has not ended). */
export function licenceEndsSoon(expiresAt: string, now: Date = new Date()): boolean {
  const ms = Date.parse(expiresAt) - now.getTime();
  return ms > 0 && ms <= LICENCE_ENDING_SOON_DAYS * DAY_MS;
}

/** The bought files, read again whenever a screen that shows them opens (days left move, licences end). */
export const purchasedFilesQuery = queryOptions<AccessibleFileList, Error, PurchasedFile[]>({
  queryKey: accessibleFilesQueryKey,
  select: purchasedFilesOf,
  staleTime: 0,
});

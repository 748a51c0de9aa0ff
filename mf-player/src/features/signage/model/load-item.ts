import type { FilePage, PlayerFile, PlaylistItem } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';
import { playerFileQuery } from '../api/get-player-file';
import { playerPagesQuery } from '../api/get-player-pages';
import { playlistItemsQuery } from '../../../lib/playlist-items';
import { type Latest, nextStep, type Snapshot, type Step } from './playback';

// What the player reads, and how it tells a file that is gone from a network that is out.

export type LoadFailure = 'login' | 'not-found' | 'failed';

/** Spec points 2 and 6: 401 → log in; 403 and 404 → not found (deleted or no access); anything else → failed. */
export function classifyLoadError(error: unknown): LoadFailure {
  if (error instanceof HttpError) {
    if (error.status === 401) return 'login';
    if (error.status === 403 || error.status === 404) return 'not-found';
  }
  return 'failed';
}

export const isGone = (error: unknown) => error !== null && classifyLoadError(error) === 'not-found';
export const isLogin = (error: unknown) => error !== null && classifyLoadError(error) === 'login';

export type PlayerSnapshot = Snapshot<PlayerFile, FilePage, PlaylistItem>;
const ITEM_LOAD_TIMEOUT_MS = 8000;

/** A fresh read (conditional request), or when the network is out what is cached; "gone" answers are thrown. */
async function freshOrCached<T>(fetchIt: () => Promise<T>, cached: () => T | undefined): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // a hanging network must not hold the screen on the last page
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ITEM_LOAD_TIMEOUT_MS);
    });
    return await Promise.race([fetchIt(), timeout]);
  } catch (error) {
    if (isGone(error) || isLogin(error)) throw error;
    const kept = cached();
    if (kept === undefined) throw error;
    return kept;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The file and pages of a playlist item about to be played, or 'gone' (deleted, licence ended). With the live
 * stream open, what is cached and not invalidated by an event is current; without it, it is asked again.
 */
export async function loadItem(
  qc: QueryClient,
  fileId: string,
  live: boolean,
): Promise<{ file: PlayerFile; pages: FilePage[] } | 'gone'> {
  const staleTime = live ? Number.POSITIVE_INFINITY : 0;
  const fileQuery = playerFileQuery(fileId);
  const pagesQuery = playerPagesQuery(fileId);
  try {
    const [file, pages] = await Promise.all([
      freshOrCached(
        () => qc.fetchQuery({ ...fileQuery, staleTime }),
        () => qc.getQueryData(fileQuery.queryKey),
      ),
      freshOrCached(
        () => qc.fetchQuery({ ...pagesQuery, staleTime }),
        () => qc.getQueryData(pagesQuery.queryKey),
      ),
    ]);
    return { file, pages };
  } catch (error) {
    if (isGone(error)) return 'gone';
    throw error;
  }
}

/** What the server said last about a file (and the playlist), straight from the query cache. */
export function readLatest(
  qc: QueryClient,
  fileId: string,
  playlistId: string | null,
): Latest<PlayerFile, FilePage, PlaylistItem> {
  const file = qc.getQueryState(playerFileQuery(fileId).queryKey);
  const pages = qc.getQueryState(playerPagesQuery(fileId).queryKey);
  const items = playlistId ? qc.getQueryState(playlistItemsQuery(playlistId).queryKey) : undefined;
  return {
    file: file?.data,
    pages: pages?.data,
    items: playlistId ? items?.data : null,
    fileGone: isGone(file?.error ?? null) || isGone(pages?.error ?? null),
    playlistGone: playlistId !== null && isGone(items?.error ?? null),
  };
}

type ItemStep = Extract<Step, { kind: 'item' }>;

/**
 * The first playable item from `step` on, skipping items found gone: 'offline' when one cannot be read (nothing
 * cached for it), 'none' when no item of the playlist can be played.
 */
export async function loadPlayableItem(
  qc: QueryClient,
  items: readonly PlaylistItem[],
  step: ItemStep,
  live: boolean,
): Promise<{ target: ItemStep; loaded: { file: PlayerFile; pages: FilePage[] } } | 'offline' | 'none'> {
  let target = step;
  for (let tries = 0; tries < items.length; tries++) {
    let loaded: Awaited<ReturnType<typeof loadItem>>;
    try {
      loaded = await loadItem(qc, target.fileId, live);
    } catch {
      return 'offline';
    }
    if (loaded !== 'gone') return { target, loaded };
    const after = nextStep({
      pageIndex: 0,
      pageCount: 0,
      playlist: {
        items: items.map((i) => (i.fileId === target.fileId ? { ...i, file: null } : i)),
        index: target.index,
        fileId: target.fileId,
      },
      fileGone: true,
    });
    if (after.kind !== 'item') break;
    target = after;
  }
  return 'none';
}

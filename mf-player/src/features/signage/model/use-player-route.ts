import type { QueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useRef } from 'react';
import { playlistItemsPath } from '../../../lib/playlist-items';
import { playerFilePath } from '../api/get-player-file';
import { playerPagesPath } from '../api/get-player-pages';
import type { Stale } from './live-events';

export interface PlayerRoute {
  fileId: string;
  playlistId: string | null;
  index: number;
}

/**
 * Where the player is: follows the URL when the URL changes, and is moved ahead of it when the player navigates
 * (a render still carrying the old URL must not move it back).
 */
export function usePlayerRoute(fileId: string, playlistId: string | null, index: number): RefObject<PlayerRoute> {
  const routeRef = useRef<PlayerRoute>({ fileId, playlistId, index });
  const seenRoute = useRef(`${fileId}|${playlistId}|${index}`);
  if (seenRoute.current !== `${fileId}|${playlistId}|${index}`) {
    seenRoute.current = `${fileId}|${playlistId}|${index}`;
    routeRef.current = { fileId, playlistId, index };
  }
  return routeRef;
}

/** Marks the player's queries stale: all of the current route's, or those a live event names. */
export function useStaleHandlers(qc: QueryClient, routeRef: RefObject<PlayerRoute>) {
  const refetchAll = useCallback(() => {
    const { fileId: id, playlistId: pid } = routeRef.current;
    void qc.invalidateQueries({ queryKey: [playerFilePath(id)] });
    void qc.invalidateQueries({ queryKey: [playerPagesPath(id)] });
    if (pid) void qc.invalidateQueries({ queryKey: [playlistItemsPath(pid)] });
  }, [qc, routeRef]);

  const onStale = useCallback(
    (stale: Stale) => {
      if (stale.kind === 'all') {
        refetchAll();
        return;
      }
      if (stale.kind === 'playlist') void qc.invalidateQueries({ queryKey: [playlistItemsPath(stale.playlistId)] });
      else {
        void qc.invalidateQueries({ queryKey: [playerFilePath(stale.fileId)] });
        void qc.invalidateQueries({ queryKey: [playerPagesPath(stale.fileId)] });
      }
    },
    [qc, refetchAll],
  );
  return { refetchAll, onStale };
}

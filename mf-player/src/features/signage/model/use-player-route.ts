import type { QueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useLayoutEffect, useState } from 'react';
import { playlistItemsPath } from '../../../lib/playlist-items';
import { playerFilePath } from '../api/get-player-file';
import { playerPagesPath } from '../api/get-player-pages';
import type { Stale } from './live-events';

export interface PlayerRoute {
  fileId: string;
  playlistId: string | null;
  index: number;
}

const routeKey = (r: PlayerRoute) => `${r.fileId}|${r.playlistId}|${r.index}`;

/**
 * Where the player is (`current`). It follows the URL when the URL changes by other means (a link, a URL typed by
 * hand), and is moved ahead of the URL when the player goes to the next playlist item itself. The router renders a
 * navigation in a transition, which can come a page or more later on a slow screen: a render carrying a URL the
 * player went to itself must not move it back, whether it is the last such URL or an earlier one rendered late.
 */
export class PlayerRouteTracker {
  current: PlayerRoute;
  private seen: string;
  /** the player's own moves whose URL has not been rendered yet, oldest first */
  private ahead: string[] = [];

  constructor(route: PlayerRoute) {
    this.current = route;
    this.seen = routeKey(route);
  }

  /** The URL a render carries. */
  fromUrl(route: PlayerRoute): void {
    const key = routeKey(route);
    if (key === this.seen) return;
    this.seen = key;
    const own = this.ahead.indexOf(key);
    if (own >= 0) {
      // one of the player's own moves (and any before it) reached the URL: the player is there or further on
      this.ahead.splice(0, own + 1);
      return;
    }
    this.ahead = [];
    this.current = route;
  }

  /** The player goes to `route` itself (and then navigates there). */
  moveTo(route: PlayerRoute): void {
    this.current = route;
    this.ahead.push(routeKey(route));
  }
}

/**
 * The player's route tracker. It learns the URL when a render is committed (a layout effect), not while rendering:
 * React may render the router's transition (the new URL), drop that render for a more urgent update and render the
 * old URL again. Taking the URLs of renders never committed for changes sent the screen back a file, mid-page.
 */
export function usePlayerRoute(fileId: string, playlistId: string | null, index: number): PlayerRouteTracker {
  const [tracker] = useState(() => new PlayerRouteTracker({ fileId, playlistId, index }));
  useLayoutEffect(() => tracker.fromUrl({ fileId, playlistId, index }), [tracker, fileId, playlistId, index]);
  return tracker;
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

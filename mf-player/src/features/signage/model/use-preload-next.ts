import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback } from 'react';
import { loadItem, type PlayerSnapshot } from './load-item';
import { nextStep, type StepContext } from './playback';
import type { useLayeredImage } from './use-layered-image';
import type { PlayerRouteTracker } from './use-player-route';

/** Where the player stands, for nextStep/previousStep: page `page` of `snap`, at the route the player is at. */
export function stepContextOf(routes: PlayerRouteTracker, snap: PlayerSnapshot, page: number): StepContext {
  const { fileId, playlistId, index } = routes.current;
  return {
    pageIndex: page,
    pageCount: snap.pages.length,
    fileGone: snap.fileGone,
    playlist: playlistId && snap.items ? { items: snap.items, index, fileId } : null,
  };
}

/**
 * After a page is on screen: the image that comes next (the next page's, or the next item's first page) loaded and
 * decoded in the hidden layer, so that the step to it shows it at once.
 */
export function usePreloadNext(
  layers: ReturnType<typeof useLayeredImage>,
  routes: PlayerRouteTracker,
  liveRef: RefObject<boolean>,
) {
  const qc = useQueryClient();
  return useCallback(
    (snap: PlayerSnapshot, page: number) => {
      const next = nextStep(stepContextOf(routes, snap, page));
      if (next.kind === 'page' && next.pageIndex !== page) {
        const url = snap.pages[next.pageIndex]?.imagePath;
        if (url) void layers.prepare(url);
      } else if (next.kind === 'item') {
        void loadItem(qc, next.fileId, liveRef.current).then(
          (item) => {
            const url = item !== 'gone' ? item.pages[0]?.imagePath : undefined;
            if (url) void layers.prepare(url);
          },
          () => undefined,
        );
      }
    },
    [qc, layers, routes, liveRef],
  );
}

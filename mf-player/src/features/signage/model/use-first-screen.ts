import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type PlayerSnapshot, readLatest } from './load-item';
import { applyAtBoundary, firstScreenWanted } from './playback';
import type { PlayerSources } from './use-player-sources';
import type { PlayerRouteTracker } from './use-player-route';
import type { ShownPage } from './use-shown-page';

/**
 * The first screen of a file (or of a file opened by its URL): everything loaded, then page 1; and a file still being
 * converted, whose pages are shown as soon as they come (nothing is on screen to interrupt).
 */
export function useFirstScreen(
  sources: PlayerSources,
  screen: Pick<ShownPage, 'current'>,
  routes: PlayerRouteTracker,
  show: (snap: PlayerSnapshot, page: number) => Promise<void>,
  onFirst: () => void,
) {
  const qc = useQueryClient();
  const { fileId, playlistId, itemsQ } = sources;
  // read from the query results (not the cache) so that this component re-renders when they change
  const latestFile = sources.fileQ.data;
  const latestPages = sources.pagesQ.data;
  const { current } = screen;

  // Decided from the route tracker, which may be ahead of the URL (firstScreenWanted); a new URL re-runs it through
  // its file's data.
  useEffect(() => {
    if (!firstScreenWanted(current.current?.file.id, routes.current.fileId, latestFile?.id)) return;
    if (!latestFile || !latestPages) return;
    if (playlistId && itemsQ.isPending) return;
    const first: PlayerSnapshot = {
      file: latestFile,
      pages: latestPages,
      items: playlistId ? (itemsQ.data ?? null) : null,
      fileGone: false,
    };
    current.current = first;
    onFirst();
    void show(first, 0);
  }, [latestFile, latestPages, playlistId, itemsQ.isPending, itemsQ.data, show, routes, current, onFirst]);

  useEffect(() => {
    const shown = current.current;
    if (!shown || shown.pages.length > 0 || !latestPages?.length || shown.file.id !== fileId) return;
    const { snapshot: snap } = applyAtBoundary(shown, readLatest(qc, shown.file.id, playlistId));
    current.current = snap;
    void show(snap, 0);
  }, [latestPages, fileId, playlistId, qc, show, current]);
}

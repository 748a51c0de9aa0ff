import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from '@pagecast/router';
import { isGone, loadPlayableItem, type PlayerSnapshot, readLatest } from './load-item';
import { applyAtBoundary, nextStep, playlistItemSearch, previousStep, type Step } from './playback';
import { useFirstScreen } from './use-first-screen';
import { useLayeredImage } from './use-layered-image';
import { useLiveUpdates } from './use-live-updates';
import type { PlayState } from './use-play-state';
import type { PlayerSources } from './use-player-sources';
import { usePlayerRoute, useStaleHandlers } from './use-player-route';
import { stepContextOf, usePreloadNext } from './use-preload-next';
import { useShownPage } from './use-shown-page';

/**
 * The signage player's steps from page to page and item to item. What is on screen (the snapshot) changes only at
 * page boundaries; live events and refetches update the react-query data, which the next boundary applies.
 */
export function usePageStepper(sources: PlayerSources, play: Pick<PlayState, 'gone' | 'markGone' | 'clearGone'>) {
  const { fileId, playlistId, index, fileQ, pagesQ, itemsQ } = sources;
  const { gone, markGone, clearGone } = play;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const screen = useShownPage();
  const { current, pageRef, commit, apply } = screen;
  const layers = useLayeredImage();
  const routes = usePlayerRoute(fileId, playlistId, index);
  const busy = useRef(false);

  const { refetchAll, onStale } = useStaleHandlers(qc, routes);
  const watchedFiles = playlistId && itemsQ.data ? [fileId, ...itemsQ.data.map((i) => i.fileId)] : [fileId];
  const { state: liveState, liveRef } = useLiveUpdates({
    enabled: Boolean(fileId) && !gone && (fileQ.isSuccess || screen.shown.snapshot !== null),
    playlistId,
    fileIds: watchedFiles,
    onStale,
  });
  const preloadNext = usePreloadNext(layers, routes, liveRef);

  /** Shows page `page` of `snap` (decoded before the swap) and makes it current. */
  const showPage = useCallback(
    async (snap: PlayerSnapshot, page: number) => {
      const url = snap.pages[page]?.imagePath;
      const result = url ? await layers.show(url) : 'failed';
      if (result === 'superseded') return;
      commit(snap, page, url !== undefined && result === 'failed');
      preloadNext(snap, page);
    },
    [layers, commit, preloadNext],
  );

  /** Goes to another playlist item: its first image is decoded before the URL changes (no blank frame). */
  const showItem = useCallback(
    async (snap: PlayerSnapshot, step: Extract<Step, { kind: 'item' }>) => {
      const { playlistId: pid } = routes.current;
      if (!pid) return;
      const found = await loadPlayableItem(qc, snap.items ?? [], step, liveRef.current);
      if (found === 'offline') {
        // offline with nothing cached for it: keep playing what is here
        await showPage(snap, 0);
        return;
      }
      if (found === 'none') {
        markGone();
        return;
      }
      const { target, loaded } = found;
      const url = loaded.pages[0]?.imagePath;
      const result = url ? await layers.show(url) : 'failed';
      if (result === 'superseded') return;
      const next: PlayerSnapshot = { file: loaded.file, pages: loaded.pages, items: snap.items, fileGone: false };
      routes.moveTo({ fileId: target.fileId, playlistId: pid, index: target.index });
      commit(next, 0, url !== undefined && result === 'failed');
      navigate(`/signage/${encodeURIComponent(target.fileId)}${playlistItemSearch(pid, target.index)}`, {
        replace: true,
      });
      preloadNext(next, 0);
    },
    [qc, layers, commit, navigate, preloadNext, showPage, liveRef, routes, markGone],
  );

  /** A page boundary: apply what changed since the last one, then go to the next (or previous) step. */
  const advance = useCallback(
    async (direction: 'next' | 'previous') => {
      const shown = current.current;
      if (!shown || busy.current) return;
      busy.current = true;
      try {
        const { snapshot: snap, changed } = applyAtBoundary(
          shown,
          readLatest(qc, shown.file.id, routes.current.playlistId),
        );
        if (changed) apply(snap);
        const ctx = stepContextOf(routes, snap, Math.min(pageRef.current, Math.max(snap.pages.length - 1, 0)));
        const step = direction === 'next' ? nextStep(ctx) : previousStep(ctx);
        if (step.kind === 'not-found') markGone();
        else if (step.kind === 'page') await showPage(snap, step.pageIndex);
        else await showItem(snap, step);
      } finally {
        busy.current = false;
        // without a live stream, look again at every page change (conditional requests: 304 when unchanged)
        if (!liveRef.current) refetchAll();
      }
    },
    [qc, current, pageRef, apply, showPage, showItem, refetchAll, liveRef, routes, markGone],
  );

  useFirstScreen(sources, screen, routes, showPage, clearGone);

  // A file that stops being playable while it is on screen (deleted, its licence ended) leaves at once, not at the next
  // page boundary: a paused player would otherwise keep showing what the member no longer has the right to show.
  const advanceRef = useRef(advance);
  advanceRef.current = advance;
  const shownFileGone = isGone(fileQ.error) || isGone(pagesQ.error);
  useEffect(() => {
    if (!shownFileGone || gone || current.current?.file.id !== fileId) return;
    void advanceRef.current('next');
  }, [shownFileGone, gone, fileId, current]);

  return { shown: screen.shown, durationMs: screen.durationMs, layers, routes, liveState, advance };
}

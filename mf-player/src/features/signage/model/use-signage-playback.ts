import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from '@pagecast/router';
import { playlistItemsQuery } from '../../../lib/playlist-items';
import { playerFileQuery } from '../api/get-player-file';
import { playerPagesQuery } from '../api/get-player-pages';
import { isGone, loadItem, loadPlayableItem, type PlayerSnapshot, readLatest } from './load-item';
import {
  applyAtBoundary,
  type DisplayMode,
  firstScreenWanted,
  nextStep,
  pageDurationMs,
  parseIndex,
  playlistItemSearch,
  previousStep,
  type Step,
  type StepContext,
} from './playback';
import { useLayeredImage } from './use-layered-image';
import { useLiveUpdates } from './use-live-updates';
import { usePlayerRoute, useStaleHandlers } from './use-player-route';

/**
 * The signage player's playback (/signage/:fileId?playlist=&index=&autoplay=). What is on screen (the snapshot)
 * changes only at page boundaries; live events and refetches update the react-query data, which the next boundary
 * applies.
 */
export function useSignagePlayback() {
  const { fileId = '' } = useParams();
  const [search] = useSearchParams();
  const playlistId = search.get('playlist') || null;
  const index = parseIndex(search.get('index'));
  const navigate = useNavigate();
  const qc = useQueryClient();

  const fileQ = useQuery(playerFileQuery(fileId));
  const pagesQ = useQuery(playerPagesQuery(fileId));
  const itemsQ = useQuery({ ...playlistItemsQuery(playlistId ?? ''), enabled: playlistId !== null });

  const [snapshot, setSnapshot] = useState<PlayerSnapshot | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [playing, setPlaying] = useState(search.get('autoplay') === 'true');
  const [pickedMode, setPickedMode] = useState<DisplayMode | null>(null);
  const [imageFailed, setImageFailed] = useState(false);
  const [gone, setGone] = useState(false);
  const [shownTick, setShownTick] = useState(0);

  const rootRef = useRef<HTMLDivElement>(null);
  const layers = useLayeredImage();
  const snapshotRef = useRef<PlayerSnapshot | null>(null);
  const pageIndexRef = useRef(0);
  const routeRef = usePlayerRoute(fileId, playlistId, index);
  const busy = useRef(false);
  const appliedAt = useRef<number | null>(null);

  // read from the query results (not the cache) so that this component re-renders when they change
  const latestFile = fileQ.data;
  const latestPages = pagesQ.data;

  const commit = useCallback((next: PlayerSnapshot, page: number) => {
    snapshotRef.current = next;
    pageIndexRef.current = page;
    setSnapshot(next);
    setPageIndex(page);
  }, []);
  const { refetchAll, onStale } = useStaleHandlers(qc, routeRef);

  const watchedFiles = playlistId && itemsQ.data ? [fileId, ...itemsQ.data.map((i) => i.fileId)] : [fileId];
  const { state: liveState, liveRef } = useLiveUpdates({
    enabled: Boolean(fileId) && !gone && (fileQ.isSuccess || snapshot !== null),
    playlistId,
    fileIds: watchedFiles,
    onStale,
  });

  const stepContext = useCallback(
    (snap: PlayerSnapshot, page: number): StepContext => {
      const { fileId: id, playlistId: pid, index: at } = routeRef.current;
      return {
        pageIndex: page,
        pageCount: snap.pages.length,
        fileGone: snap.fileGone,
        playlist: pid && snap.items ? { items: snap.items, index: at, fileId: id } : null,
      };
    },
    [routeRef],
  );

  /** After a page is on screen: start its timer and get the next image ready in the hidden layer. */
  const afterShown = useCallback(
    (snap: PlayerSnapshot, page: number) => {
      setShownTick((n) => n + 1);
      const next = nextStep(stepContext(snap, page));
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
    [qc, layers, stepContext, liveRef],
  );

  /** Shows page `page` of `snap` (decoded before the swap) and makes it current. */
  const showPage = useCallback(
    async (snap: PlayerSnapshot, page: number) => {
      const url = snap.pages[page]?.imagePath;
      const result = url ? await layers.show(url) : 'failed';
      if (result === 'superseded') return;
      commit(snap, page);
      setImageFailed(url !== undefined && result === 'failed');
      afterShown(snap, page);
    },
    [layers, commit, afterShown],
  );

  /** Goes to another playlist item: its first image is decoded before the URL changes (no blank frame). */
  const showItem = useCallback(
    async (snap: PlayerSnapshot, step: Extract<Step, { kind: 'item' }>) => {
      const { playlistId: pid } = routeRef.current;
      if (!pid) return;
      const found = await loadPlayableItem(qc, snap.items ?? [], step, liveRef.current);
      if (found === 'offline') {
        // offline with nothing cached for it: keep playing what is here
        await showPage(snap, 0);
        return;
      }
      if (found !== 'none') {
        const { target, loaded } = found;
        const url = loaded.pages[0]?.imagePath;
        const result = url ? await layers.show(url) : 'failed';
        if (result === 'superseded') return;
        const next: PlayerSnapshot = { file: loaded.file, pages: loaded.pages, items: snap.items, fileGone: false };
        routeRef.moveTo({ fileId: target.fileId, playlistId: pid, index: target.index });
        commit(next, 0);
        setImageFailed(url !== undefined && result === 'failed');
        navigate(`/signage/${encodeURIComponent(target.fileId)}${playlistItemSearch(pid, target.index)}`, {
          replace: true,
        });
        afterShown(next, 0);
        return;
      }
      setGone(true);
      setPlaying(false);
    },
    [qc, layers, commit, navigate, afterShown, showPage, liveRef, routeRef],
  );

  /** A page boundary: apply what changed since the last one, then go to the next (or previous) step. */
  const advance = useCallback(
    async (direction: 'next' | 'previous') => {
      const shown = snapshotRef.current;
      if (!shown || busy.current) return;
      busy.current = true;
      try {
        const { snapshot: snap, changed } = applyAtBoundary(
          shown,
          readLatest(qc, shown.file.id, routeRef.current.playlistId),
        );
        if (changed) {
          appliedAt.current = Date.now();
          snapshotRef.current = snap;
          setSnapshot(snap);
        }
        const ctx = stepContext(snap, Math.min(pageIndexRef.current, Math.max(snap.pages.length - 1, 0)));
        const step = direction === 'next' ? nextStep(ctx) : previousStep(ctx);
        if (step.kind === 'not-found') {
          setGone(true);
          setPlaying(false);
        } else if (step.kind === 'page') await showPage(snap, step.pageIndex);
        else await showItem(snap, step);
      } finally {
        busy.current = false;
        // without a live stream, look again at every page change (conditional requests: 304 when unchanged)
        if (!liveRef.current) refetchAll();
      }
    },
    [qc, stepContext, showPage, showItem, refetchAll, liveRef, routeRef],
  );

  // First screen of a file (or a file opened by its URL): everything loaded, then page 1. Decided from the route ref,
  // which may be ahead of the URL (firstScreenWanted); a new URL re-runs it through its file's data.
  useEffect(() => {
    if (!firstScreenWanted(snapshotRef.current?.file.id, routeRef.current.fileId, latestFile?.id)) return;
    if (!latestFile || !latestPages) return;
    if (playlistId && itemsQ.isPending) return;
    const first: PlayerSnapshot = {
      file: latestFile,
      pages: latestPages,
      items: playlistId ? (itemsQ.data ?? null) : null,
      fileGone: false,
    };
    snapshotRef.current = first;
    setGone(false);
    void showPage(first, 0);
  }, [latestFile, latestPages, playlistId, itemsQ.isPending, itemsQ.data, showPage, routeRef]);

  // A file still being converted: its pages are applied as soon as they come (nothing is on screen to interrupt).
  useEffect(() => {
    const shown = snapshotRef.current;
    if (!shown || shown.pages.length > 0 || !latestPages?.length || shown.file.id !== fileId) return;
    const { snapshot: snap } = applyAtBoundary(shown, readLatest(qc, shown.file.id, playlistId));
    snapshotRef.current = snap;
    void showPage(snap, 0);
  }, [latestPages, fileId, playlistId, qc, showPage]);

  // Autoplay: each page stays for its duration, measured from when it appeared (only a new page, play/pause or
  // the end restart the timer; other renders, such as an update arriving, must not).
  const advanceRef = useRef(advance);
  advanceRef.current = advance;
  // biome-ignore lint/correctness/useExhaustiveDependencies: shownTick restarts the timer for every page shown
  useEffect(() => {
    const snap = snapshotRef.current;
    if (!playing || !snap || gone) return;
    const timer = setTimeout(
      () => void advanceRef.current('next'),
      pageDurationMs(snap.pages[pageIndexRef.current], snap.file),
    );
    return () => clearTimeout(timer);
  }, [playing, shownTick, gone]);

  // A file that stops being playable while it is on screen (deleted, its licence ended) leaves at once, not at the next
  // page boundary: a paused player would otherwise keep showing what the member no longer has the right to show.
  const shownFileGone = isGone(fileQ.error) || isGone(pagesQ.error);
  useEffect(() => {
    if (!shownFileGone || gone || snapshotRef.current?.file.id !== fileId) return;
    void advanceRef.current('next');
  }, [shownFileGone, gone, fileId]);

  return {
    fileId,
    playlistId,
    qc,
    fileQ,
    pagesQ,
    itemsQ,
    snapshot,
    pageIndex,
    playing,
    setPlaying,
    pickedMode,
    setPickedMode,
    imageFailed,
    gone,
    rootRef,
    layers,
    routeRef,
    appliedAt,
    liveState,
    advance,
  };
}

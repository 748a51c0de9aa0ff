import { useCallback, useRef, useState } from 'react';
import type { PlayerSnapshot } from './load-item';
import { pageTimerMs } from './playback';

/**
 * What is on screen: the snapshot and its page, whether that page's image failed, and `tick`, which counts the
 * showings (each restarts the page's timer). The refs hold the same for the steps that run between renders; a
 * snapshot may be taken into them before it is shown (`current`).
 */
export function useShownPage() {
  const [snapshot, setSnapshot] = useState<PlayerSnapshot | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [imageFailed, setImageFailed] = useState(false);
  const [tick, setTick] = useState(0);
  const current = useRef<PlayerSnapshot | null>(null);
  const pageRef = useRef(0);
  /** when an update was last applied at a page boundary (the page reports it for tests) */
  const appliedAt = useRef<number | null>(null);

  /** Page `page` of `snap` is on screen now: its image, or the fallback when the image failed. */
  const commit = useCallback((snap: PlayerSnapshot, page: number, failed: boolean) => {
    current.current = snap;
    pageRef.current = page;
    setSnapshot(snap);
    setPageIndex(page);
    setImageFailed(failed);
    setTick((n) => n + 1);
  }, []);

  /** An update applied at a page boundary: the next step starts from it. */
  const apply = useCallback((snap: PlayerSnapshot) => {
    appliedAt.current = Date.now();
    current.current = snap;
    setSnapshot(snap);
  }, []);

  /** How long the page on screen stays, read when its timer starts (a video moves on when it ends, this guards it). */
  const durationMs = useCallback(() => {
    const snap = current.current;
    return snap ? pageTimerMs(snap.pages[pageRef.current], snap.file) : null;
  }, []);

  return {
    shown: { snapshot, pageIndex, imageFailed, tick, appliedAt },
    current,
    pageRef,
    commit,
    apply,
    durationMs,
  };
}

export type ShownPage = ReturnType<typeof useShownPage>;

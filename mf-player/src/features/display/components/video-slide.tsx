// A video's slide on the display: a muted, inline <video> of the file's playable video with its poster page as
// poster, played until it ends. The slide after the current one, when it is a video, is mounted beforehand, hidden,
// loaded (preload="auto") and decoded (played muted a moment, then paused back at its start), so when the current
// slide ends the same element is shown in the same commit: no black frame between items.
// An item set to loop plays again from its start when it ends (the last frame stays on screen while it seeks back:
// no black frame), as many times as its loops say, before the next slide. While it plays, its time is told to the
// display (the play record and the report name the second reached); a video whose time stops advancing for
// VIDEO_FROZEN_SECONDS once it played is told frozen.
import { VIDEO_FROZEN_SECONDS } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { useEffect, useRef } from 'react';
import type { Slide } from '../model/slides';

/** How often a playing video's time is looked at for the frozen check. */
export const VIDEO_WATCH_MS = 1000;

/**
 * Watches a playing video's time: `frozen(second)` once when it has not advanced for VIDEO_FROZEN_SECONDS (a
 * decoder or a stream that hung) while the video is neither ended nor paused by the display. Returns its stop.
 */
export function watchVideoTime(el: HTMLVideoElement, frozen: (second: number) => void): () => void {
  let last = el.currentTime;
  let still = 0;
  let told = false;
  const timer = setInterval(() => {
    if (told) return;
    if (el.ended || el.currentTime !== last) {
      last = el.currentTime;
      still = 0;
      return;
    }
    still += VIDEO_WATCH_MS;
    if (still >= VIDEO_FROZEN_SECONDS * 1000) {
      told = true;
      frozen(el.currentTime);
    }
  }, VIDEO_WATCH_MS);
  return () => clearInterval(timer);
}

type VideoSlideOf = Slide & { video: NonNullable<Slide['video']> };

/** Decodes a prepared video's first frame: played muted, then paused back at 0 once playback began. */
export function prepareVideo(el: HTMLVideoElement): () => void {
  let stopped = false;
  el.muted = true;
  Promise.resolve(el.play()).then(
    () => {
      if (stopped) return;
      el.pause();
      el.currentTime = 0;
      el.dataset.prepared = 'true';
    },
    // not playable (yet): it is tried again when it comes on screen, and skipped if it fails there
    () => {},
  );
  return () => {
    stopped = true;
  };
}

export function VideoSlide({
  slide,
  step,
  active,
  onEnded,
  onPlaying,
  onFailed,
  onTime,
  onFrozen,
}: {
  slide: VideoSlideOf;
  /** the showing this element is for (the current one, or the next) */
  step: number;
  /** on screen (else prepared, hidden) */
  active: boolean;
  onEnded: (step: number) => void;
  onPlaying: () => void;
  onFailed: () => void;
  /** on screen: the video's time, as it advances (seconds) */
  onTime?: (second: number) => void;
  /** on screen: its time stopped advancing (watchVideoTime) */
  onFrozen?: (second: number) => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  const failedRef = useRef(onFailed);
  failedRef.current = onFailed;
  const frozenRef = useRef(onFrozen);
  frozenRef.current = onFrozen;
  /** loops played to their end so far in this showing */
  const laps = useRef(0);
  const stopWatch = useRef<(() => void) | null>(null);
  useEffect(
    () => () => {
      stopWatch.current?.();
      stopWatch.current = null;
    },
    [],
  );

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!active) return prepareVideo(el);
    // it failed while it was prepared: reported and skipped now it is its turn
    if (el.error) {
      failedRef.current();
      return;
    }
    el.muted = true;
    Promise.resolve(el.play()).catch(() => {
      // refused or failed: an error event reports it; otherwise the stall guard moves on
    });
  }, [active]);

  return (
    <video
      ref={ref}
      className={active ? 'pc-display__page pc-display__video' : 'pc-display__page pc-display__video pc-display__next'}
      src={slide.video.url}
      poster={slide.imagePath}
      muted
      playsInline
      preload="auto"
      aria-label={t('screens.display.pageAlt', { page: slide.page + 1 })}
      aria-hidden={active ? undefined : true}
      data-file={slide.fileId}
      data-page={slide.page}
      data-step={step}
      data-loops={slide.loops ?? 1}
      data-state={active ? 'current' : 'next'}
      onPlaying={(e) => {
        if (!activeRef.current) return;
        onPlaying();
        // once it plays, a time that stops advancing is frozen
        if (!stopWatch.current) {
          stopWatch.current = watchVideoTime(e.currentTarget, (second) => frozenRef.current?.(second));
        }
      }}
      onTimeUpdate={(e) => {
        if (activeRef.current) onTime?.(e.currentTarget.currentTime);
      }}
      onEnded={(e) => {
        if (!activeRef.current) return;
        const el = e.currentTarget;
        onTime?.(el.currentTime);
        laps.current += 1;
        if (laps.current < (slide.loops ?? 1)) {
          // again from its start: the ended element keeps its last frame on screen while it seeks back
          el.currentTime = 0;
          Promise.resolve(el.play()).catch(() => {});
          return;
        }
        onEnded(step);
      }}
      onError={() => {
        if (activeRef.current) failedRef.current();
      }}
    />
  );
}

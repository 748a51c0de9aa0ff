// A video's slide on the display: a muted, inline <video> of the file's playable video with its poster page as
// poster, played until it ends. The slide after the current one, when it is a video, is mounted beforehand, hidden,
// loaded (preload="auto") and decoded (played muted a moment, then paused back at its start), so when the current
// slide ends the same element is shown in the same commit: no black frame between items.
import { useTranslation } from '@pagecast/i18n';
import { useEffect, useRef } from 'react';
import type { Slide } from '../model/slides';

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
}: {
  slide: VideoSlideOf;
  /** the showing this element is for (the current one, or the next) */
  step: number;
  /** on screen (else prepared, hidden) */
  active: boolean;
  onEnded: (step: number) => void;
  onPlaying: () => void;
  onFailed: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  const failedRef = useRef(onFailed);
  failedRef.current = onFailed;

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
      data-state={active ? 'current' : 'next'}
      onPlaying={() => {
        if (activeRef.current) onPlaying();
      }}
      onEnded={() => {
        if (activeRef.current) onEnded(step);
      }}
      onError={() => {
        if (activeRef.current) failedRef.current();
      }}
    />
  );
}
